package views

import (
	"net/url"
	"strings"
)

// secretAttrs are attributes whose whole value is a credential.
var secretAttrs = map[string]bool{
	"signingkey": true, "password": true, "secret": true, "token": true,
	"apikey": true, "api_key": true, "authorization": true, "privatekey": true,
}

// urlAttrs are attributes holding URLs whose credentials (userinfo password,
// query values) are secret while the rest helps diagnosis.
var urlAttrs = map[string]bool{"connecturl": true, "seleniumremoteurl": true}

const maskDots = "••••••"

// MaskSecret is the detail view's mask: it decides, by attribute name at
// any depth (eventHistory envelopes can carry a copy of a session), whether
// a value is secret and what to show instead. Masks never reveal length.
func MaskSecret(path []string, value string) (string, bool) {
	if len(path) == 0 || value == "" {
		return value, false
	}
	name := strings.ToLower(path[len(path)-1])
	if secretAttrs[name] {
		return maskDots, true
	}
	if urlAttrs[name] {
		m := maskURL(value)
		return m, m != value
	}
	return value, false
}

// maskURL hides the password in userinfo and every query value (the signed
// token of connectUrl travels there). Something that does not parse as a URL
// with a scheme is masked whole: we cannot tell where its token is.
func maskURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return maskDots
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxxx")
		} else {
			u.User = url.User("xxxxxx")
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		parts := make([]string, 0, len(q))
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			parts = append(parts, k+"="+"xxxxxx")
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if u.Fragment != "" {
		u.Fragment = "xxxxxx"
	}
	// A token in the path (…/devtools/<jwt>) is masked segment by segment.
	segs := strings.Split(u.Path, "/")
	for i, sg := range segs {
		if looksLikeToken(sg) {
			segs[i] = "xxxxxx"
		}
	}
	u.Path = strings.Join(segs, "/")
	u.RawPath = ""
	out := u.String()
	return strings.ReplaceAll(out, "xxxxxx", maskDots)
}

// looksLikeToken: long opaque segments (JWTs, hex/base64 secrets).
func looksLikeToken(s string) bool {
	if len(s) < 24 {
		return false
	}
	if strings.Count(s, ".") == 2 {
		return true
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '=' || r == '+') {
			return false
		}
	}
	return true
}
