// Package export writes items to a file in one of three forms: plain JSON
// lines (what jq and tickets want), CSV of the columns a list shows, and
// DynamoDB-typed JSON lines in the form of DynamoDB's own export to S3
// (`{"Item":{"pk":{"S":"…"}}}`), which reads back to exactly the items
// written. Secrets are masked by data/secret unless the caller reveals
// them. It knows nothing of the UI.
//
// What is written is safe to print: every control, C1, bidi/format
// character in a value is written escaped (JSON \u escapes; in CSV, the
// views' visible escapes), so `cat` of an export cannot drive the terminal.
package export

import (
	"bufio"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
)

// Format is the form of an export file.
type Format string

const (
	JSONL Format = "jsonl" // one plain JSON object per line
	CSV   Format = "csv"   // the list's columns, as shown
	DDB   Format = "ddb"   // one {"Item": DynamoDB JSON} per line
)

// Formats lists the formats, for completion and messages.
func Formats() []string { return []string{string(JSONL), string(CSV), string(DDB)} }

// ParseFormat reads a format name (case-insensitive).
func ParseFormat(s string) (Format, bool) {
	for _, f := range Formats() {
		if strings.EqualFold(s, f) {
			return Format(f), true
		}
	}
	return "", false
}

// FormatFor guesses the format from a file name: .csv is CSV, .ddb (or
// .ddb.json) DynamoDB JSON, anything else plain JSON lines.
func FormatFor(path string) Format {
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".csv"):
		return CSV
	case strings.HasSuffix(p, ".ddb"), strings.HasSuffix(p, ".ddb.json"), strings.HasSuffix(p, ".ddbjson"):
		return DDB
	}
	return JSONL
}

// Record is one row to export: the raw item (JSONL, DDB) and the cells as
// the list shows them (CSV).
type Record struct {
	Item  data.Item
	Cells []string
}

// Writer writes records in one format.
type Writer struct {
	format Format
	mask   secret.Masker
	buf    *bufio.Writer
	csv    *csv.Writer
	n      int
}

// NewWriter starts an export to w. header is the CSV header (the column
// titles; ignored by the JSON forms). mask nil writes secrets as stored
// (the operator revealed them); normally it is secret.Default.
func NewWriter(w io.Writer, f Format, header []string, mask secret.Masker) (*Writer, error) {
	ew := &Writer{format: f, mask: mask, buf: bufio.NewWriterSize(w, 64<<10)}
	switch f {
	case JSONL, DDB:
	case CSV:
		ew.csv = csv.NewWriter(ew.buf)
		if err := ew.csv.Write(csvCells(header)); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown export format %q (use %s)", f, strings.Join(Formats(), ", "))
	}
	return ew, nil
}

// Write writes one record.
func (w *Writer) Write(r Record) error {
	w.n++
	if w.format == CSV {
		return w.csv.Write(csvCells(r.Cells))
	}
	it := r.Item
	if w.mask != nil {
		it, _ = secret.Item(w.mask, it)
	}
	var v any
	var err error
	if w.format == DDB {
		var m map[string]any
		m, err = typedMap(it, 0)
		v = map[string]any{"Item": m}
	} else {
		v, err = plainMap(it, 0)
	}
	if err != nil {
		return fmt.Errorf("item %d: %w", w.n, err)
	}
	b, err := marshal(v)
	if err != nil {
		return fmt.Errorf("item %d: %w", w.n, err)
	}
	if _, err := w.buf.Write(b); err != nil {
		return err
	}
	return w.buf.WriteByte('\n')
}

// Count is how many records were written.
func (w *Writer) Count() int { return w.n }

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	if w.csv != nil {
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	}
	return w.buf.Flush()
}

// Text is an attribute's value as one line of text, for comparisons (the
// filter's field=value): strings and numbers as stored, booleans
// true/false, NULL empty, binary as base64, anything else as plain JSON.
func Text(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return "true"
		}
		return "false"
	case *types.AttributeValueMemberNULL:
		return ""
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	p, err := plain(av, 0)
	if err != nil {
		return ""
	}
	b, err := marshal(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// maxDepth bounds recursion: DynamoDB nests at most 32 levels.
const maxDepth = 64

func plainMap(m map[string]types.AttributeValue, depth int) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, av := range m {
		v, err := plain(av, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

// plain is the JSON an engineer expects: S → string, N → number (exact
// digits), BOOL, NULL → null, M → object, L → array, SS/NS/BS → arrays,
// B → base64.
func plain(av types.AttributeValue, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return number(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberB:
		return v.Value, nil // encoding/json writes []byte as base64
	case *types.AttributeValueMemberM:
		return plainMap(v.Value, depth)
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			x, err := plain(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case *types.AttributeValueMemberSS:
		return v.Value, nil
	case *types.AttributeValueMemberNS:
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = number(s)
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		return v.Value, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("unsupported attribute type %T", av)
}

// number keeps the exact digits when they are a valid JSON number, else
// the text as a string (never invalid JSON).
func number(s string) any {
	if json.Valid([]byte(s)) {
		var f any
		if json.Unmarshal([]byte(s), &f) == nil {
			if _, ok := f.(float64); ok {
				return json.Number(s)
			}
		}
	}
	return s
}

// csvCells are the cells as the list shows them: escaped like the screen
// (views/inert does the same) and guarded against spreadsheet formulas.
func csvCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = formulaGuard(data.Escape(c))
	}
	return out
}

// formulaGuard prefixes a cell a spreadsheet would run as a formula
// (=, +, -, @ first) with a quote. Numbers and a lone "-" stay as they are.
func formulaGuard(s string) string {
	if s == "" || s == "-" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@':
		if _, ok := number(s).(json.Number); ok {
			return s
		}
		return "'" + s
	}
	return s
}
