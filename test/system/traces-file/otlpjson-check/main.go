// Command otlpjson-check reads a traces file line by line and decodes each line with the OpenTelemetry
// Collector's OTLP/JSON decoder (ptrace.JSONUnmarshaler from go.opentelemetry.io/collector/pdata), the one
// the Collector's otlpjsonfile receiver runs on each line it reads. It is not that receiver: it checks that
// every line is what the receiver's decoder takes, and prints what the decoder made of it as JSON:
//
//	{"lines": 3, "spanCount": 12, "spans": [{"line": 1, "name": "execute_tool search", "traceId": "…", …}], "errors": []}
//
// Exit status 0 when every line decoded, 1 when a line did not (its number and the decoder's error are in
// "errors"), 2 on a usage or read error. Built by scripts/ci-install-tools.sh (otlpjson-check) with the
// pdata version of the collector release scripts/build-otelcol.sh builds; run by
// test/system/traces-file/otlpjson-decode.test.ts.
//
//	otlpjson-check traces.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// span is one decoded span as the decoder sees it: ids as hex, attributes as plain values, times as
// decimal strings (nanoseconds do not fit a JSON number that JavaScript reads exactly).
type span struct {
	Line              int            `json:"line"`
	TraceID           string         `json:"traceId"`
	SpanID            string         `json:"spanId"`
	ParentSpanID      string         `json:"parentSpanId"`
	Name              string         `json:"name"`
	Kind              string         `json:"kind"`
	StatusCode        string         `json:"statusCode"`
	StartTimeUnixNano uint64         `json:"startTimeUnixNano,string"`
	EndTimeUnixNano   uint64         `json:"endTimeUnixNano,string"`
	Scope             string         `json:"scope"`
	Attributes        map[string]any `json:"attributes"`
	Resource          map[string]any `json:"resource"`
}

// lineError is a line the decoder refused.
type lineError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

type report struct {
	Lines     int         `json:"lines"`
	SpanCount int         `json:"spanCount"`
	Spans     []span      `json:"spans"`
	Errors    []lineError `json:"errors"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: otlpjson-check <traces.jsonl>")
		os.Exit(2)
	}
	file, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "otlpjson-check:", err)
		os.Exit(2)
	}
	defer file.Close()

	// The same decoder value the otlpjsonfile receiver builds once and applies to every line.
	decoder := &ptrace.JSONUnmarshaler{}
	out := report{Spans: []span{}, Errors: []lineError{}}
	scanner := bufio.NewScanner(file)
	scanner.Buffer(make([]byte, 0, 1024*1024), 256*1024*1024)
	for scanner.Scan() {
		out.Lines++
		traces, err := decoder.UnmarshalTraces(scanner.Bytes())
		if err != nil {
			out.Errors = append(out.Errors, lineError{Line: out.Lines, Error: err.Error()})
			continue
		}
		out.SpanCount += traces.SpanCount()
		for i := 0; i < traces.ResourceSpans().Len(); i++ {
			resourceSpans := traces.ResourceSpans().At(i)
			resource := resourceSpans.Resource().Attributes().AsRaw()
			for j := 0; j < resourceSpans.ScopeSpans().Len(); j++ {
				scopeSpans := resourceSpans.ScopeSpans().At(j)
				for k := 0; k < scopeSpans.Spans().Len(); k++ {
					s := scopeSpans.Spans().At(k)
					out.Spans = append(out.Spans, span{
						Line:              out.Lines,
						TraceID:           s.TraceID().String(),
						SpanID:            s.SpanID().String(),
						ParentSpanID:      s.ParentSpanID().String(),
						Name:              s.Name(),
						Kind:              s.Kind().String(),
						StatusCode:        s.Status().Code().String(),
						StartTimeUnixNano: uint64(s.StartTimestamp()),
						EndTimeUnixNano:   uint64(s.EndTimestamp()),
						Scope:             scopeSpans.Scope().Name(),
						Attributes:        s.Attributes().AsRaw(),
						Resource:          resource,
					})
				}
			}
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "otlpjson-check: reading", os.Args[1]+":", err)
		os.Exit(2)
	}
	encoder := json.NewEncoder(os.Stdout)
	if err := encoder.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "otlpjson-check:", err)
		os.Exit(2)
	}
	if len(out.Errors) > 0 {
		os.Exit(1)
	}
}
