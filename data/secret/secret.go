// Package secret decides what part of a DynamoDB value is a credential and
// masks it. It is the one masker: the detail view, the Stream pane's
// summaries and comparison, what `c` copies and the audit log all use it,
// so a secret hidden in one place is hidden in every place.
//
// A value is secret by what it is, wherever it sits:
//   - anything under an attribute or map key whose name says it is a
//     credential (signingKey, password, apiKey, *Token, *Secret, ...), at
//     any depth and of any type — a signing key stored as a list, a map, a
//     set, a number or binary is masked whole;
//   - in any string (or binary value read as text), the credential parts of
//     a URL (the password of user:pass@, query values named like a
//     credential or that look like tokens, token-like path segments, even
//     in opaque URLs such as wss:host/cdp?token=), JWTs, bearer tokens,
//     PEM private keys, and name=value pairs whose name says credential;
//   - under an attribute whose name says it holds URLs (connectUrl,
//     seleniumRemoteUrl, *Url, *Uri), every query value, fragment and
//     userinfo, and any string that cannot be read as a URL at all.
//
// Masks never reveal a length: every mask is the same six dots.
package secret

import (
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Mask replaces whatever is secret.
const Mask = "••••••"

// Masker decides what of a value is secret. The path names the value: the
// attribute name, then map keys, "[i]" for list elements (set members share
// their set's path).
type Masker interface {
	// Whole reports whether the value at path is a secret as a whole,
	// whatever its type: it is shown as Mask, containers included.
	Whole(path []string) bool
	// String returns s with its secret parts masked, and whether anything
	// was.
	String(path []string, s string) (string, bool)
	// Binary reports whether a binary value at path carries a secret (its
	// bytes, read as text, hold one). Binary is masked whole.
	Binary(path []string, b []byte) bool
}

// Rules is the opsdeck masker. The zero value is ready to use.
type Rules struct{}

// Default is the masker every view and log uses.
var Default Masker = Rules{}

// Whole: some element of the path is named like a credential.
func (Rules) Whole(path []string) bool {
	for _, p := range path {
		if SecretName(p) {
			return true
		}
	}
	return false
}

// String masks the secret parts of s.
func (r Rules) String(path []string, s string) (string, bool) {
	if s == "" {
		return s, false
	}
	if r.Whole(path) {
		return Mask, true
	}
	if underURLName(path) {
		return maskURLAttr(s)
	}
	return Text(s)
}

// Binary: the bytes under a secret or URL name, or bytes that read as text
// hold something Text would mask.
func (r Rules) Binary(path []string, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if r.Whole(path) || underURLName(path) {
		return true
	}
	if len(b) > maxScan {
		b = b[:maxScan]
	}
	_, changed := Text(string(b))
	return changed
}

// maxScan bounds how much of a binary value is read as text: a 400 KB blob
// is scanned, but not copied whole into a string more than once.
const maxScan = 512 << 10

// SecretName reports whether an attribute or map key name says its value is
// a credential. Names compare without case, '_', '-' and '.'.
func SecretName(name string) bool {
	n := normName(name)
	if n == "" {
		return false
	}
	switch n {
	case "password", "passwd", "pwd", "secret", "token", "apikey", "authorization", "auth",
		"privatekey", "signingkey", "secretkey", "accesskey", "credential", "credentials",
		"cookie", "setcookie", "sessiontoken", "bearer", "jwt", "otp", "pin", "passphrase":
		return true
	}
	for _, suf := range []string{"token", "secret", "password", "passwd", "passphrase", "privatekey",
		"signingkey", "apikey", "secretkey", "accesskey", "credentials", "credential"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// URLName reports whether an attribute name says it holds a URL whose
// credentials must be hidden (connectUrl, seleniumRemoteUrl, webhookUri).
func URLName(name string) bool {
	n := normName(name)
	return strings.HasSuffix(n, "url") || strings.HasSuffix(n, "uri") || strings.HasSuffix(n, "dsn")
}

func underURLName(path []string) bool {
	for _, p := range path {
		if URLName(p) {
			return true
		}
	}
	return false
}

// normName lower-cases a name and drops the separators people put in names.
func normName(s string) string {
	if len(s) > 64 {
		return "" // not a name anyone gave a credential
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c == '_' || c == '-' || c == '.' || c == ' ':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Value returns av with its secrets masked (a whole secret becomes the S
// value Mask, a secret binary value the S value Mask) and whether anything
// was. Unchanged parts are shared, not copied. For logs: the type of a
// masked value is not kept.
func Value(m Masker, path []string, av types.AttributeValue) (types.AttributeValue, bool) {
	return value(m, path, av, 0)
}

// Item is Value over every attribute of an item.
func Item(m Masker, item map[string]types.AttributeValue) (map[string]types.AttributeValue, bool) {
	if item == nil {
		return nil, false
	}
	out := make(map[string]types.AttributeValue, len(item))
	any := false
	for k, v := range item {
		nv, ch := value(m, []string{k}, v, 0)
		out[k] = nv
		any = any || ch
	}
	if !any {
		return item, false
	}
	return out, true
}

// maxDepth bounds recursion (DynamoDB nests at most 32 levels); anything
// deeper is masked whole rather than walked.
const maxDepth = 64

func value(m Masker, path []string, av types.AttributeValue, depth int) (types.AttributeValue, bool) {
	masked := &types.AttributeValueMemberS{Value: Mask}
	if av == nil {
		return nil, false
	}
	if m.Whole(path) {
		switch av.(type) {
		case *types.AttributeValueMemberNULL, *types.AttributeValueMemberBOOL:
			return av, false // no secret fits in a flag
		}
		return masked, true
	}
	if depth > maxDepth {
		return masked, true
	}
	child := func(p string) []string { return append(path[:len(path):len(path)], p) }
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		if s, ch := m.String(path, v.Value); ch {
			return &types.AttributeValueMemberS{Value: s}, true
		}
	case *types.AttributeValueMemberB:
		if m.Binary(path, v.Value) {
			return masked, true
		}
	case *types.AttributeValueMemberSS:
		var out []string
		for i, s := range v.Value {
			if ms, ch := m.String(path, s); ch {
				if out == nil {
					out = append([]string(nil), v.Value...)
				}
				out[i] = ms
			}
		}
		if out != nil {
			return &types.AttributeValueMemberSS{Value: out}, true
		}
	case *types.AttributeValueMemberBS:
		for _, b := range v.Value {
			if m.Binary(path, b) {
				return masked, true
			}
		}
	case *types.AttributeValueMemberM:
		var out map[string]types.AttributeValue
		for k, e := range v.Value {
			if ne, ch := value(m, child(k), e, depth+1); ch {
				if out == nil {
					out = make(map[string]types.AttributeValue, len(v.Value))
					for k2, e2 := range v.Value {
						out[k2] = e2
					}
				}
				out[k] = ne
			}
		}
		if out != nil {
			return &types.AttributeValueMemberM{Value: out}, true
		}
	case *types.AttributeValueMemberL:
		var out []types.AttributeValue
		for i, e := range v.Value {
			if ne, ch := value(m, child("["+itoa(i)+"]"), e, depth+1); ch {
				if out == nil {
					out = append([]types.AttributeValue(nil), v.Value...)
				}
				out[i] = ne
			}
		}
		if out != nil {
			return &types.AttributeValueMemberL{Value: out}, true
		}
	}
	return av, false
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// validText is s with invalid UTF-8 replaced, so that scanning a binary
// value as text never splits a rune in two when masking.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
