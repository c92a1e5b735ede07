package data

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Query answers are most of what the console reads: a load-all of 100k
// sessions is a hundred pages of a thousand items. The SDK's decoder spent
// a quarter of the console's CPU on them: it reads each body into a buffer
// grown by doubling (and dropped after, past 64 KB), and builds each item's
// map by growing it. queryProtocol decodes a Query's answer itself, into
// the very same QueryOutput, with a reused buffer and maps sized like the
// item before. It knows only the shape DynamoDB answers with; at anything
// else (an unknown field, a null, an escape it does not take, bytes that
// are not UTF-8) it hands the same bytes to the SDK's decoder, so what the
// console sees never depends on which one decoded it
// (TestQueryDecodeIsTheSDKs checks them against each other).

// queryProtocol is the DynamoDB client's protocol with Query answers
// decoded by decodeQuery.
type queryProtocol struct {
	smithyhttp.ClientProtocol
}

// DeserializeResponse implements smithyhttp.ClientProtocol.
func (p queryProtocol) DeserializeResponse(ctx context.Context, op *smithy.OperationSchema, reg *smithy.TypeRegistry, resp *smithyhttp.Response, out smithy.Deserializable) error {
	q, ok := out.(*dynamodb.QueryOutput)
	if enc := resp.Header.Get("Content-Encoding"); !ok || resp.StatusCode < 200 || resp.StatusCode >= 300 || resp.Body == nil ||
		(enc != "" && enc != "identity") {
		return p.ClientProtocol.DeserializeResponse(ctx, op, reg, resp, out)
	}
	bp := bodyBufs.Get().(*[]byte)
	defer putBodyBuf(bp)
	body, err := readBody(resp.Body, resp.ContentLength, (*bp)[:0])
	*bp = body
	if err != nil {
		return &smithy.DeserializationError{Err: err}
	}
	if decodeQuery(body, q) {
		return nil
	}
	*q = dynamodb.QueryOutput{}
	again := *resp.Response
	again.Body = io.NopCloser(bytes.NewReader(body))
	return p.ClientProtocol.DeserializeResponse(ctx, op, reg, &smithyhttp.Response{Response: &again}, out)
}

var bodyBufs = sync.Pool{New: func() any { return new([]byte) }}

// bodyKeepMax bounds a body buffer kept for the next answer: DynamoDB's
// pages stop at 1 MB of data, a little more as JSON.
const bodyKeepMax = 4 << 20

func putBodyBuf(bp *[]byte) {
	if cap(*bp) <= bodyKeepMax {
		*bp = (*bp)[:0]
		bodyBufs.Put(bp)
	}
}

// readBody reads r to its end into buf, grown once to size when size is
// known.
func readBody(r io.Reader, size int64, buf []byte) ([]byte, error) {
	if size > 0 && size < 64<<20 && int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// decodeQuery fills q from a Query answer's body; false: the body is not
// one it decodes (q is then partly filled, and the caller resets it).
func decodeQuery(body []byte, q *dynamodb.QueryOutput) bool {
	if len(body) == 0 {
		return true // nothing to decode, as the SDK does
	}
	d := jsonDec{b: body}
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "Count":
			return d.int32(&q.Count)
		case "ScannedCount":
			return d.int32(&q.ScannedCount)
		case "Items":
			q.Items = make([]map[string]types.AttributeValue, 0, 64)
			return d.array(func() bool {
				m, ok := d.attrMap()
				q.Items = append(q.Items, m)
				return ok
			})
		case "LastEvaluatedKey":
			m, ok := d.attrMap()
			q.LastEvaluatedKey = m
			return ok
		case "ConsumedCapacity":
			q.ConsumedCapacity = &types.ConsumedCapacity{}
			return d.consumed(q.ConsumedCapacity)
		}
		return false
	})
	d.ws()
	return ok && d.i == len(d.b)
}

// jsonDec reads the JSON of DynamoDB's answers. Each method reports false
// at anything it does not take; it never panics on any input.
type jsonDec struct {
	b []byte
	i int
	// names are the attribute names read so far, each kept once: a page
	// of a thousand items names the same few attributes a thousand times.
	names map[string]string
	// hint is the size of the last item map read: a page's items have
	// mostly the same attributes, so the next map is made that size.
	hint int
	buf  []byte // scratch for strings with escapes
}

func (d *jsonDec) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDec) eat(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads {"k": v, ...}, calling member with each key (valid until
// the next read) positioned at its value.
func (d *jsonDec) object(member func(key []byte) bool) bool {
	if !d.eat('{') {
		return false
	}
	if d.eat('}') {
		return true
	}
	for {
		d.ws()
		key, ok := d.text() // valid until the member's own reads
		if !ok || !d.eat(':') || !member(key) {
			return false
		}
		if d.eat('}') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
}

// array reads [v, ...], calling elem positioned at each value.
func (d *jsonDec) array(elem func() bool) bool {
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.eat(']') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
}

// str reads a string value.
func (d *jsonDec) str() (string, bool) {
	b, ok := d.text()
	return string(b), ok
}

// text reads a string: its bytes as they stand when it holds no escape,
// else decoded into the scratch buffer — valid until the next read either
// way. Bytes that are not UTF-8, lone surrogates and raw control bytes are
// not taken (the SDK decides what they become).
func (d *jsonDec) text() ([]byte, bool) {
	d.ws()
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.b); j++ {
		c := d.b[j]
		switch {
		case c == '"':
			s := d.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			d.i = j + 1
			return s, true
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// escaped reads the string that starts at start and holds escapes.
func (d *jsonDec) escaped(start int) ([]byte, bool) {
	out := d.buf[:0]
	j := start
	for j < len(d.b) {
		c := d.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return nil, false
			}
			d.i, d.buf = j+1, out
			return out, true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(d.b) {
			return nil, false
		}
		j++
		switch d.b[j] {
		case '"', '\\', '/':
			out = append(out, d.b[j])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := d.hex4(j + 1)
			if n == 0 {
				return nil, false
			}
			j += 4
			if utf16.IsSurrogate(r) {
				if j+2 >= len(d.b) || d.b[j+1] != '\\' || d.b[j+2] != 'u' {
					return nil, false
				}
				r2, n2 := d.hex4(j + 3)
				pair := utf16.DecodeRune(r, r2)
				if n2 == 0 || pair == utf8.RuneError {
					return nil, false
				}
				r = pair
				j += 6
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
		j++
	}
	return nil, false
}

// hex4 reads four hex digits at i; n is 0 when there are not four.
func (d *jsonDec) hex4(i int) (rune, int) {
	if i+4 > len(d.b) {
		return 0, 0
	}
	var r rune
	for _, c := range d.b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, 0
		}
	}
	return r, 4
}

// number reads a JSON number's text.
func (d *jsonDec) number() ([]byte, bool) {
	d.ws()
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.i++
			continue
		}
		break
	}
	return d.b[start:d.i], d.i > start
}

func (d *jsonDec) int32(v *int32) bool {
	tok, ok := d.number()
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(string(tok), 10, 32)
	*v = int32(n)
	return err == nil
}

func (d *jsonDec) float(v **float64) bool {
	tok, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	*v = &f
	return err == nil
}

func (d *jsonDec) boolean() (bool, bool) {
	d.ws()
	switch {
	case bytes.HasPrefix(d.b[d.i:], []byte("true")):
		d.i += 4
		return true, true
	case bytes.HasPrefix(d.b[d.i:], []byte("false")):
		d.i += 5
		return false, true
	}
	return false, false
}

func (d *jsonDec) blob() ([]byte, bool) {
	s, ok := d.str()
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}

// attrMap reads an item (or a key): attribute names to values.
func (d *jsonDec) attrMap() (map[string]types.AttributeValue, bool) {
	m := make(map[string]types.AttributeValue, d.hint)
	d.ws()
	ok := d.object(func(key []byte) bool {
		name := d.name(key) // before the value's read reuses key's bytes
		v, ok := d.attr()
		m[name] = v
		return ok
	})
	d.hint = len(m)
	return m, ok
}

// name is key as a string, the same string each time it is read.
func (d *jsonDec) name(key []byte) string {
	if s, ok := d.names[string(key)]; ok {
		return s
	}
	if d.names == nil {
		d.names = make(map[string]string, 16)
	}
	s := string(key)
	d.names[s] = s
	return s
}

// attr reads one AttributeValue: an object of exactly one type member.
func (d *jsonDec) attr() (types.AttributeValue, bool) {
	var v types.AttributeValue
	members := 0
	hint := d.hint
	ok := d.object(func(key []byte) bool {
		members++
		if members > 1 {
			return false
		}
		switch string(key) {
		case "S":
			s, ok := d.str()
			v = &types.AttributeValueMemberS{Value: s}
			return ok
		case "N":
			s, ok := d.str()
			v = &types.AttributeValueMemberN{Value: s}
			return ok
		case "B":
			b, ok := d.blob()
			v = &types.AttributeValueMemberB{Value: b}
			return ok
		case "BOOL":
			b, ok := d.boolean()
			v = &types.AttributeValueMemberBOOL{Value: b}
			return ok
		case "NULL":
			b, ok := d.boolean()
			v = &types.AttributeValueMemberNULL{Value: b}
			return ok
		case "M":
			d.hint = 0
			m, ok := d.attrMap()
			d.hint = hint
			v = &types.AttributeValueMemberM{Value: m}
			return ok
		case "L":
			l := make([]types.AttributeValue, 0)
			ok := d.array(func() bool {
				e, ok := d.attr()
				l = append(l, e)
				return ok
			})
			v = &types.AttributeValueMemberL{Value: l}
			return ok
		case "SS", "NS":
			strs := key[0] == 'S' // before the elements' reads reuse key's bytes
			l := make([]string, 0)
			ok := d.array(func() bool {
				s, ok := d.str()
				l = append(l, s)
				return ok
			})
			if strs {
				v = &types.AttributeValueMemberSS{Value: l}
			} else {
				v = &types.AttributeValueMemberNS{Value: l}
			}
			return ok
		case "BS":
			l := make([][]byte, 0)
			ok := d.array(func() bool {
				b, ok := d.blob()
				l = append(l, b)
				return ok
			})
			v = &types.AttributeValueMemberBS{Value: l}
			return ok
		}
		return false
	})
	return v, ok && members == 1
}

// consumed reads a ConsumedCapacity.
func (d *jsonDec) consumed(c *types.ConsumedCapacity) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "TableName":
			s, ok := d.str()
			c.TableName = &s
			return ok
		case "CapacityUnits":
			return d.float(&c.CapacityUnits)
		case "ReadCapacityUnits":
			return d.float(&c.ReadCapacityUnits)
		case "WriteCapacityUnits":
			return d.float(&c.WriteCapacityUnits)
		case "Table":
			c.Table = &types.Capacity{}
			return d.capacity(c.Table)
		case "GlobalSecondaryIndexes", "LocalSecondaryIndexes":
			global := key[0] == 'G' // before the names' reads reuse key's bytes
			m := map[string]types.Capacity{}
			ok := d.object(func(key []byte) bool {
				name := string(key) // before the value's read reuses key's bytes
				var one types.Capacity
				ok := d.capacity(&one)
				m[name] = one
				return ok
			})
			if global {
				c.GlobalSecondaryIndexes = m
			} else {
				c.LocalSecondaryIndexes = m
			}
			return ok
		}
		return false
	})
}

func (d *jsonDec) capacity(c *types.Capacity) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "CapacityUnits":
			return d.float(&c.CapacityUnits)
		case "ReadCapacityUnits":
			return d.float(&c.ReadCapacityUnits)
		case "WriteCapacityUnits":
			return d.float(&c.WriteCapacityUnits)
		}
		return false
	})
}
