// Over 400 lines on purpose: the free-text masker's scanners (URLs, tokens,
// JWTs, PEM keys, name=value pairs) mark ranges into one set; they are read together.

package secret

import (
	"sort"
	"strings"
)

// Text masks the credentials found in free text: the secret parts of every
// URL in it (hierarchical or opaque), JWTs, bearer and basic tokens, PEM
// private keys, and name=value (or name: value, "name":"value") pairs whose
// name says credential. It reports whether anything was masked.
func Text(s string) (string, bool) {
	if !worthScanning(s) {
		return s, false
	}
	v := validText(s)
	var rs ranges
	scanURLs(v, &rs, false)
	scanPatterns(v, &rs)
	if len(rs) == 0 {
		return s, false
	}
	return rs.apply(v)
}

// maskURLAttr masks a string held under a URL-named attribute: the string
// is the URL, so every query value, the fragment and the userinfo are
// secret. A string that cannot be read as one URL (control characters,
// spaces) is masked whole: there is no telling where its token is.
func maskURLAttr(s string) (string, bool) {
	s = validText(s)
	scheme := schemeAt(s, 0)
	if scheme == 0 {
		// A relative URL, a host, a bare query string: read as a URL
		// without a scheme, and search the rest as text.
		if hasControl(s) || looksLikeToken(s) {
			return Mask, true
		}
		var rs ranges
		if !strings.ContainsAny(s, " \t\n\r") {
			urlRanges(s, 0, len(s), 0, true, &rs)
		}
		scanURLs(s, &rs, false)
		scanPatterns(s, &rs)
		if len(rs) == 0 {
			return s, false
		}
		return rs.apply(s)
	}
	if hasControl(s) || strings.ContainsAny(s, " \t\n\r\"'<>`") {
		return Mask, true
	}
	var rs ranges
	urlRanges(s, 0, len(s), scheme, true, &rs)
	scanPatterns(s, &rs)
	return rs.apply(s)
}

// worthScanning is the fast path: most values (ids, statuses, numbers,
// words) hold none of the characters a credential pattern needs. One pass:
// every cell of a load-all's rows comes through here (900k for 100k
// sessions).
func worthScanning(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':', '=', '@':
			return true
		case 'e':
			if strings.HasPrefix(s[i:], "eyJ") {
				return true
			}
		case '-':
			if strings.HasPrefix(s[i:], "-----BEGIN") {
				return true
			}
		case 'b', 'B':
			if (hasPrefixFold(s[i:], "bearer ") || hasPrefixFold(s[i:], "basic ")) && (i == 0 || !isLetter(s[i-1])) {
				return true
			}
		case 't', 'T':
			if hasPrefixFold(s[i:], "token ") && (i == 0 || !isLetter(s[i-1])) {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case (prefix is lower
// case).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		c := s[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[j] {
			return false
		}
	}
	return true
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
		}
	}
	return strings.ContainsRune(s, '\u0085')
}

// ranges are byte ranges [start, end) to replace with Mask.
type ranges [][2]int

func (r *ranges) add(start, end int) {
	if end > start {
		*r = append(*r, [2]int{start, end})
	}
}

// apply replaces the ranges (merged where they overlap or touch) with Mask.
func (r ranges) apply(s string) (string, bool) {
	if len(r) == 0 {
		return s, false
	}
	sort.Slice(r, func(i, j int) bool { return r[i][0] < r[j][0] })
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(r); {
		start, end := r[i][0], r[i][1]
		j := i + 1
		for j < len(r) && r[j][0] <= end {
			end = max(end, r[j][1])
			j++
		}
		if start < pos {
			start = pos
		}
		if start < end {
			b.WriteString(s[pos:start])
			b.WriteString(Mask)
			pos = end
		}
		i = j
	}
	b.WriteString(s[pos:])
	return b.String(), true
}

// netScheme reports a scheme whose opaque form ("wss:host:9223/cdp") is
// still a network address, so a token-shaped path segment is a token. Other
// opaque schemes name things (arn:aws:ecs:…:task/…, did:key:z6Mk…,
// urn:uuid:…) whose long segments are ids, not secrets.
func netScheme(scheme string) bool {
	switch strings.ToLower(scheme) {
	case "http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh", "redis", "rediss", "postgres", "postgresql",
		"mysql", "mongodb", "mongodb+srv", "amqp", "amqps", "nats", "mqtt", "mqtts", "ldap", "ldaps", "smtp",
		"smtps", "imap", "imaps", "git", "svn", "s3", "gs", "tcp", "udp", "grpc", "grpcs", "jdbc", "devtools":
		return true
	}
	return false
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// schemeAt returns the length of "scheme:" when s[i:] starts with a URL
// scheme (a letter, then letters, digits, + - ., then ':' and something
// that is not a space), else 0.
func schemeAt(s string, i int) int {
	if i >= len(s) || !isLetter(s[i]) {
		return 0
	}
	j := i + 1
	for j < len(s) && isSchemeChar(s[j]) {
		j++
	}
	n := j - i
	if n < 2 || n > 32 || j+1 >= len(s) || s[j] != ':' {
		return 0
	}
	if c := s[j+1]; c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		return 0
	}
	return n + 1
}

// urlEnd is where a URL starting at i ends in free text: at whitespace,
// a quote or an angle bracket.
func urlEnd(s string, i int) int {
	for j := i; j < len(s); j++ {
		switch s[j] {
		case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
			return j
		}
	}
	return len(s)
}

// scanURLs finds every URL in s and adds its secret parts.
func scanURLs(s string, rs *ranges, strict bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		// Walk back to the start of the scheme.
		k := i
		for k > 0 && isSchemeChar(s[k-1]) {
			k--
		}
		for k < i && !isLetter(s[k]) {
			k++ // a scheme starts with a letter
		}
		n := schemeAt(s, k)
		if n == 0 || k+n != i+1 {
			continue
		}
		end := urlEnd(s, k)
		if strings.HasPrefix(s[i+1:end], "//") || netScheme(s[k:i]) {
			urlRanges(s, k, end, n, strict, rs)
			i = end
			continue
		}
		// arn:, did:, urn:, a time of day: names, not addresses. Only a
		// query, if one follows, can carry a credential; and a real URL
		// may start later in the same run of text.
		if q := indexIn(s, i+1, end, '?'); q >= 0 {
			queryRanges(s, q+1, end, false, rs)
		}
	}
}

// urlRanges adds the secret parts of the URL s[start:end], whose scheme
// (with its colon) is n bytes long. strict (a URL-named attribute) masks
// every query value, the fragment and any userinfo; otherwise only what is
// named or shaped like a credential.
func urlRanges(s string, start, end, n int, strict bool, rs *ranges) {
	i := start + n
	frag := indexIn(s, i, end, '#')
	if frag < 0 {
		frag = end
	}
	q := indexIn(s, i, frag, '?')
	if q < 0 {
		q = frag
	}
	pathStart := i
	if strings.HasPrefix(s[i:end], "//") {
		auth := i + 2
		authEnd := auth
		for authEnd < q && s[authEnd] != '/' {
			authEnd++
		}
		if at := strings.LastIndexByte(s[auth:authEnd], '@'); at >= 0 {
			ui := s[auth : auth+at]
			if c := strings.IndexByte(ui, ':'); c >= 0 {
				rs.add(auth+c+1, auth+at) // the password
				if looksLikeToken(ui[:c]) {
					rs.add(auth, auth+c)
				}
			} else if strict || looksLikeToken(ui) {
				rs.add(auth, auth+at) // a token used as the user name
			}
		}
		pathStart = authEnd
	}
	// Path (or the opaque part): token-shaped segments, and matrix or
	// embedded name=value pairs.
	seg := pathStart
	for j := pathStart; j <= q; j++ {
		if j == q || s[j] == '/' || s[j] == ';' {
			segment(s, seg, j, true, rs)
			seg = j + 1
		}
	}
	if q < frag {
		queryRanges(s, q+1, frag, strict, rs)
	}
	if frag < end {
		if strict {
			rs.add(frag+1, end)
		} else {
			queryRanges(s, frag+1, end, false, rs)
		}
	}
}

// queryRanges masks the values of a query (or fragment) s[start:end]:
// all of them when strict, else those named like a credential or shaped
// like a token (a value that is itself a path or URL is searched).
func queryRanges(s string, start, end int, strict bool, rs *ranges) {
	p := start
	for j := start; j <= end; j++ {
		if j < end && s[j] != '&' && s[j] != ';' {
			continue
		}
		pair := s[p:j]
		if eq := strings.IndexByte(pair, '='); eq >= 0 {
			vs, ve := p+eq+1, j
			switch {
			case strict || SecretName(unescapeName(pair[:eq])):
				rs.add(vs, ve)
			default:
				segment(s, vs, ve, true, rs)
			}
			segment(s, p, p+eq, true, rs) // a name that is not one
		} else {
			segment(s, p, j, true, rs)
		}
		p = j + 1
	}
}

// segment masks s[start:end] when it is token-shaped; a value holding a
// path or a nested URL is searched piece by piece (split at / : ,).
func segment(s string, start, end int, nested bool, rs *ranges) {
	if end <= start {
		return
	}
	v := s[start:end]
	if eq := strings.IndexByte(v, '='); eq > 0 {
		// A matrix parameter or a name=value in a path segment.
		if SecretName(unescapeName(v[:eq])) {
			rs.add(start+eq+1, end)
			return
		}
	}
	if looksLikeToken(v) {
		rs.add(start, end)
		return
	}
	if !nested {
		return
	}
	p := start
	for j := start; j <= end; j++ {
		if j == end || strings.IndexByte("/:,%?#&=@;+", s[j]) >= 0 {
			if looksLikeToken(s[p:j]) {
				rs.add(p, j)
			}
			p = j + 1
		}
	}
}

// unescapeName undoes the percent-encoding of '_' and '-' that some
// clients apply to parameter names; enough to recognise a name.
func unescapeName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	r := strings.NewReplacer("%5F", "_", "%5f", "_", "%2D", "-", "%2d", "-")
	return r.Replace(s)
}

func indexIn(s string, from, to int, c byte) int {
	if from >= to {
		return -1
	}
	if k := strings.IndexByte(s[from:to], c); k >= 0 {
		return from + k
	}
	return -1
}

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
