// The shapes of credentials in free text: what looks like a token (a JWT, a
// long random run, not a UUID), and scanPatterns, which adds JWTs,
// bearer/basic tokens, PEM private keys and secret-named name=value pairs to
// the ranges. Split from text.go and text_url.go: these match by shape and by
// name, not by parsing a URL.

package secret

import (
	"strings"
)

// looksLikeToken: a JWT, or a long opaque run of token characters with the
// mix of letters and digits (or of cases) random strings have. UUIDs and
// hyphenated words are ids and names, not credentials, and stay visible.
func looksLikeToken(s string) bool {
	if isJWT(s) {
		return true
	}
	if len(s) < 24 || len(s) > 8192 {
		return false
	}
	var digits, lower, upper int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c == '-' || c == '_' || c == '=' || c == '+' || c == '~' || c == '.':
		default:
			return false
		}
	}
	if isUUID(s) || isHex(s) {
		// Ids, hashes and commit SHAs; a hex credential is found by its
		// name (key=…), not its shape.
		return false
	}
	letters := lower + upper
	n := len(s)
	mixedDigits := digits*100 >= 15*n && letters*100 >= 15*n
	mixedCase := upper >= 3 && lower >= 3 && (digits > 0 || upper*100 >= 20*letters)
	return mixedDigits || mixedCase
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isB64URL(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '='
}

// isJWT: the whole of s is header.payload.signature with a JSON header.
func isJWT(s string) bool {
	return strings.HasPrefix(s, "eyJ") && jwtLen(s, 0) == len(s)
}

// jwtLen is the length of the JWT starting at s[i] ("eyJ…" "." "…" "."
// optional signature), or 0.
func jwtLen(s string, i int) int {
	if !strings.HasPrefix(s[i:], "eyJ") {
		return 0
	}
	j, dots := i, 0
	segStart := i
	for j < len(s) {
		c := s[j]
		if isB64URL(c) {
			j++
			continue
		}
		if c == '.' && dots < 2 && j-segStart >= 2 {
			dots++
			j++
			segStart = j
			continue
		}
		break
	}
	if dots < 2 {
		return 0
	}
	return j - i
}

// scanPatterns adds JWTs, bearer/basic tokens, PEM private keys and
// secret-named name=value pairs found anywhere in s.
func scanPatterns(s string, rs *ranges) {
	// JWTs.
	for off := 0; off < len(s); {
		k := strings.Index(s[off:], "eyJ")
		if k < 0 {
			break
		}
		i := off + k
		if n := jwtLen(s, i); n > 0 {
			rs.add(i, i+n)
			off = i + n
			continue
		}
		off = i + 3
	}
	// Authorization schemes: "Bearer <token>", "Basic <token>", "token <t>".
	for _, word := range []string{"bearer ", "basic ", "token "} {
		for off := 0; off < len(s); {
			k := indexFold(s[off:], word)
			if k < 0 {
				break
			}
			i := off + k + len(word)
			for i < len(s) && s[i] == ' ' {
				i++
			}
			j := i
			for j < len(s) && (isB64URL(s[j]) || s[j] == '.' || s[j] == '+' || s[j] == '/' || s[j] == '~') {
				j++
			}
			if j-i >= 8 && (word != "token " || looksLikeToken(s[i:j])) {
				rs.add(i, j)
			}
			off = max(j, off+k+1)
		}
	}
	// PEM private keys: from BEGIN to the matching END (or the end).
	for off := 0; off < len(s); {
		k := strings.Index(s[off:], "-----BEGIN")
		if k < 0 {
			break
		}
		i := off + k
		head := s[i:min(len(s), i+64)]
		if !strings.Contains(head, "PRIVATE KEY") && !strings.Contains(head, "ENCRYPTED") {
			off = i + 10
			continue
		}
		e := strings.Index(s[i+10:], "-----END")
		end := len(s)
		if e >= 0 {
			end = i + 10 + e
			if f := strings.Index(s[end+8:], "-----"); f >= 0 {
				end += 8 + f + 5
			}
		}
		rs.add(i, end)
		off = end
	}
	// name=value, name: value, "name": "value".
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' {
			continue
		}
		// The name before the separator (maybe quoted, maybe spaced).
		ne := i
		for ne > 0 && s[ne-1] == ' ' {
			ne--
		}
		if ne > 0 && (s[ne-1] == '"' || s[ne-1] == '\'') {
			ne--
		}
		ns := ne
		for ns > 0 && (isSchemeChar(s[ns-1]) || s[ns-1] == '_') {
			ns--
		}
		if ns == ne || !SecretName(s[ns:ne]) {
			continue
		}
		// The value after it.
		vs := i + 1
		for vs < len(s) && s[vs] == ' ' {
			vs++
		}
		if authScheme(s[vs:]) {
			// "Authorization: Bearer <t>": the token rule masks <t>, and
			// the scheme's name is worth reading.
			continue
		}
		if c == ':' && vs > i+1 && errorProse(s[vs:]) {
			// "get credentials: failed to refresh cached credentials": an
			// error chain names a step, then says what went wrong in words.
			continue
		}
		quoted := byte(0)
		if vs < len(s) && (s[vs] == '"' || s[vs] == '\'') {
			quoted = s[vs]
			vs++
		}
		ve := vs
		for ve < len(s) {
			d := s[ve]
			if quoted != 0 {
				if d == quoted {
					break
				}
			} else if d == ' ' || d == '\t' || d == '\n' || d == '\r' || d == '&' || d == ',' || d == ';' || d == '}' || d == ')' || d == '"' || d == '\'' {
				break
			}
			ve++
		}
		rs.add(vs, ve)
		if ve > i {
			i = ve - 1
		}
	}
}

func containsFold(s, sub string) bool { return indexFold(s, sub) >= 0 }

// indexFold is strings.Index ignoring ASCII case (sub is lower case).
func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		ok := true
		for j := 0; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				ok = false
				break
			}
		}
		if ok && (i == 0 || !isLetter(s[i-1])) {
			return i
		}
	}
	return -1
}

// authScheme reports whether s starts with an authorization scheme's name
// and a space.
func authScheme(s string) bool {
	for _, w := range []string{"bearer ", "basic ", "token "} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			return true
		}
	}
	return false
}

// proseWords are the words Go and AWS SDK error chains put after "step:"
// ("get credentials: failed to refresh…", "token: expired"). A value that
// is one of them, in lower case, is the error talking, not a credential.
var proseWords = map[string]bool{
	"failed": true, "failure": true, "unable": true, "cannot": true, "could": true, "not": true, "no": true,
	"none": true, "missing": true, "invalid": true, "expired": true, "empty": true, "unknown": true,
	"error": true, "denied": true, "unauthorized": true, "forbidden": true, "required": true,
	"refresh": true, "retrieve": true, "get": true, "load": true, "loading": true, "timeout": true,
	"timed": true, "exceeded": true, "operation": true, "the": true, "is": true, "was": true,
	"has": true, "already": true, "request": true, "context": true, "dial": true, "read": true,
	"lookup": true, "access": true, "unexpected": true, "malformed": true,
}

// errorProse: s starts with one of proseWords ending at a space, a
// punctuation mark or the end of s.
func errorProse(s string) bool {
	j := 0
	for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
		j++
	}
	if j == 0 || !proseWords[s[:j]] {
		return false
	}
	return j == len(s) || strings.IndexByte(" ,;:.)", s[j]) >= 0
}
