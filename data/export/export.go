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
		v, err = data.PlainItem(it)
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
	p, err := data.Plain(av)
	if err != nil {
		return ""
	}
	b, err := marshal(p)
	if err != nil {
		return ""
	}
	return string(b)
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
		if isNumber(s) {
			return s
		}
		return "'" + s
	}
	return s
}

// isNumber: s reads as a number (JSON's syntax, spaces around it allowed,
// within float64's range), so a leading - or + is a sign, not a formula.
func isNumber(s string) bool {
	if !json.Valid([]byte(s)) {
		return false
	}
	var f any
	if json.Unmarshal([]byte(s), &f) != nil {
		return false
	}
	_, ok := f.(float64)
	return ok
}
