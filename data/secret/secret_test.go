package secret

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzXzEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
func mv(kv ...any) types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: m}
}
func lv(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: vs}
}

// dump renders a value with every byte of every leaf (binary as base64, the
// way `c` copies it), so a test can search it for a secret.
func dump(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(x.Value) + "|" + string(x.Value)
	case *types.AttributeValueMemberSS:
		return strings.Join(x.Value, ",")
	case *types.AttributeValueMemberNS:
		return strings.Join(x.Value, ",")
	case *types.AttributeValueMemberBS:
		var parts []string
		for _, b := range x.Value {
			parts = append(parts, base64.StdEncoding.EncodeToString(b)+"|"+string(b))
		}
		return strings.Join(parts, ",")
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(x.Value))
		for k := range x.Value {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(k + "=" + dump(x.Value[k]) + ";")
		}
		return "{" + b.String() + "}"
	case *types.AttributeValueMemberL:
		var b strings.Builder
		for _, e := range x.Value {
			b.WriteString(dump(e) + ";")
		}
		return "[" + b.String() + "]"
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprint(x.Value)
	}
	return ""
}

func TestStringMasksByNameAndByShape(t *testing.T) {
	cases := []struct {
		name   string
		path   []string
		value  string
		secret bool
		hidden []string // must not appear in the masked form
		kept   []string // must still appear (useful for diagnosis)
	}{
		{"signing key", []string{"signingKey"}, jwt, true, []string{jwt[:10]}, nil},
		{"connectUrl query", []string{"connectUrl"}, "wss://connect.example/v1/sessions/sess_1/cdp?token=" + jwt + "&x=1",
			true, []string{jwt[:10], "x=1"}, []string{"wss://connect.example/v1/sessions/sess_1/cdp", "token="}},
		{"password in userinfo", []string{"seleniumRemoteUrl"}, "https://user:hunter2hunter2@grid.example:4444/wd/hub",
			true, []string{"hunter2"}, []string{"grid.example:4444/wd/hub", "user"}},
		{"jwt path segment", []string{"connectUrl"}, "wss://connect.example/devtools/" + jwt, true, []string{jwt[:10]}, []string{"/devtools/"}},
		{"unparseable url attr", []string{"connectUrl"}, "wss://x/\x1b[2J?token=abcdefabcdef", true, []string{"abcdefabcdef"}, nil},
		{"nested copy", []string{"eventHistory", "[0]", "detail", "signingKey"}, "secret-value", true, []string{"secret-value"}, nil},
		{"url without token", []string{"connectUrl"}, "wss://connect.example/v1/sessions/sess_1", false, nil, nil},
		{"plain id", []string{"projectId"}, "proj_1", false, nil, nil},
		{"empty", []string{"signingKey"}, "", false, nil, nil},
		// Not under a URL name: found by what it is.
		{"url in a note", []string{"userMetadata", "note"}, "see wss://203.0.113.9:9223/cdp?signingKey=sk_live_0123456789abcdefABCDEF for details",
			true, []string{"sk_live_0123456789"}, []string{"wss://203.0.113.9:9223/cdp?signingKey=", "for details"}},
		{"opaque url", []string{"callback"}, "wss:203.0.113.9:9223/cdp?token=T0k3nT0k3nT0k3n", true, []string{"T0k3n"}, []string{"wss:203.0.113.9:9223/cdp?token="}},
		{"opaque url token in path", []string{"x"}, "cdp:devtools/page/" + jwt, true, []string{jwt[:12]}, []string{"cdp:devtools/page/"}},
		{"token in a nested url", []string{"link"}, "chrome-devtools://devtools/inspector.html?ws=host:9223/devtools/page/A1b2C3d4E5f6G7h8I9j0K1l2M3", true,
			[]string{"A1b2C3d4E5f6G7h8"}, []string{"ws=host:9223/devtools/page/"}},
		{"password in any url", []string{"dsnText"}, "postgres://app:s3cr3t-pw@db.internal:5432/app", true, []string{"s3cr3t-pw"}, []string{"db.internal:5432/app", "app:"}},
		{"fragment token", []string{"redirect"}, "https://app.example/cb#access_token=abc123SECRETxyz&state=1", true, []string{"abc123SECRET"}, []string{"state=1"}},
		{"bare jwt", []string{"note"}, "token was " + jwt + " yesterday", true, []string{jwt[:12]}, []string{"yesterday"}},
		{"bearer", []string{"headers"}, "Authorization: Bearer abcdefgh12345678", true, []string{"abcdefgh12345678"}, []string{"Authorization"}},
		{"pem", []string{"blob"}, "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", true, []string{"MIIEowIBAAKCAQEA"}, nil},
		{"kv in text", []string{"log"}, "retry with password=hunter2 and user=bob", true, []string{"hunter2"}, []string{"user=bob"}},
		{"json in a string", []string{"userMetadata"}, `{"apiKey": "ak_0123", "team": "pricing"}`, true, []string{"ak_0123"}, []string{"pricing"}},
		// Things that must stay as they are.
		{"timestamp", []string{"createdAt"}, "2026-11-21T11:00:00.123Z", false, nil, nil},
		{"uuid in url", []string{"link"}, "https://console.example/runs/3f1c2a5e-8b7d-4c1e-9f3a-1234567890ab?tab=logs", false, nil, nil},
		{"status pair", []string{"note"}, "status=RUNNING region=us-east-1", false, nil, nil},
		{"slug", []string{"link"}, "https://docs.example/pending-deletion-retry-queue-2024", false, nil, nil},
		{"ecs task arn", []string{"ecsTaskArn"}, "arn:aws:ecs:us-east-1:418295036614:task/wallcrawler-browsers/0f1e2d3c4b5a69788796a5b4c3d2e1f0", false, nil, nil},
		{"did", []string{"issuer"}, "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", false, nil, nil},
		{"commit sha in a url", []string{"link"}, "https://git.example/commit/9fceb02d0ae598e95dc970b74767f19372d61af8", false, nil, nil},
	}
	for _, c := range cases {
		got, secret := Default.String(c.path, c.value)
		if secret != c.secret {
			t.Errorf("%s: String(%v, %q) = %q, secret %v, want %v", c.name, c.path, c.value, got, secret, c.secret)
			continue
		}
		if !secret && got != c.value {
			t.Errorf("%s: changed a non-secret: %q", c.name, got)
		}
		for _, h := range c.hidden {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q still shows %q", c.name, got, h)
			}
		}
		for _, k := range c.kept {
			if !strings.Contains(got, k) {
				t.Errorf("%s: %q lost %q", c.name, got, k)
			}
		}
	}
}

func TestNamesSayCredential(t *testing.T) {
	for _, n := range []string{"signingKey", "signing_key", "password", "apiKey", "api-key", "accessToken", "refresh_token",
		"clientSecret", "privateKey", "Authorization", "AWS_SECRET_ACCESS_KEY", "credentials"} {
		if !SecretName(n) {
			t.Errorf("%s should be a secret name", n)
		}
	}
	for _, n := range []string{"sessionId", "projectId", "apiKeyHash", "keyId", "idempotency_key", "storageKey", "status", "[0]", "contextStorageKey"} {
		if SecretName(n) {
			t.Errorf("%s is not a secret name", n)
		}
	}
}

// TestWholeValueMaskedWhateverItsType: a signingKey stored as a list, map,
// set, number or binary, and a connectUrl stored as a map, are masked.
func TestWholeValueMaskedWhateverItsType(t *testing.T) {
	const key = "SK-0123456789-SECRET"
	item := map[string]types.AttributeValue{
		"sessionId":  sv("sess_1"),
		"signingKey": lv(sv(key), nv("1")),
		"nested":     mv("signingKey", mv("kid", sv("k1"), "value", sv(key))),
		"asSet":      mv("signingKey", &types.AttributeValueMemberSS{Value: []string{key}}),
		"asBinary":   mv("signingKey", &types.AttributeValueMemberB{Value: []byte(key)}),
		"asBS":       mv("token", &types.AttributeValueMemberBS{Value: [][]byte{[]byte(key)}}),
		"asNumber":   mv("apiKey", nv("12345678901234567890")),
		"connectUrl": mv("url", sv("wss://203.0.113.9:9223/cdp?signingKey="+key), "host", sv("203.0.113.9")),
		"urlBytes":   mv("connectUrl", &types.AttributeValueMemberB{Value: []byte("wss://h/cdp?signingKey=" + key)}),
		"blob":       &types.AttributeValueMemberB{Value: []byte("GET /cdp?token=" + key + " HTTP/1.1")},
		"flags":      mv("token", &types.AttributeValueMemberBOOL{Value: true}),
	}
	out, changed := Item(Default, item)
	if !changed {
		t.Fatal("nothing masked")
	}
	for k, v := range out {
		if d := dump(v); strings.Contains(d, key) || strings.Contains(d, "12345678901234567890") ||
			strings.Contains(d, base64.StdEncoding.EncodeToString([]byte(key))[:12]) {
			t.Errorf("%s still shows the secret: %s", k, d)
		}
	}
	if dump(out["sessionId"]) != "sess_1" || !strings.Contains(dump(out["connectUrl"]), "203.0.113.9") {
		t.Errorf("masked too much: %s %s", dump(out["sessionId"]), dump(out["connectUrl"]))
	}
	if dump(out["flags"]) != "{token=true;}" {
		t.Errorf("a flag holds no secret: %s", dump(out["flags"]))
	}
	// The input is not modified.
	if dump(item["signingKey"]) != "["+key+";1;]" {
		t.Errorf("Item modified its input: %s", dump(item["signingKey"]))
	}
}

// worthScanningBefore is the fast path as it was written first, one
// search per pattern: the one-pass version must agree with it.
func worthScanningBefore(s string) bool {
	return strings.ContainsAny(s, ":=@") || strings.Contains(s, "eyJ") || strings.Contains(s, "-----BEGIN") ||
		containsFold(s, "bearer ") || containsFold(s, "basic ") || containsFold(s, "token ")
}

func TestWorthScanningIsEverySearch(t *testing.T) {
	for _, s := range []string{
		"", "sess_0123", "RUNNING", "us-east-1", "3m ago", "a:b", "x=y", "me@host", "eyJhbGciOi", "xeyJ",
		"-----BEGIN RSA", "----BEGIN", "Bearer abc", "bearer", "xbearer abc", "1bearer abc", "BASIC dXNlcg==",
		"the token here", "Token x", "mytoken x", "tokens x", "b", "t", "-", "e", "ey", "Bearer\tx",
	} {
		if got, want := worthScanning(s), worthScanningBefore(s); got != want {
			t.Errorf("worthScanning(%q) = %v, the searches say %v", s, got, want)
		}
	}
}

func FuzzWorthScanningIsEverySearch(f *testing.F) {
	f.Add("Bearer abc")
	f.Add("x-----BEGIN")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := worthScanning(s), worthScanningBefore(s); got != want {
			t.Fatalf("worthScanning(%q) = %v, the searches say %v", s, got, want)
		}
	})
}

// TestErrorProseIsNotASecret: an error chain names a credential step and
// then says, in words, what went wrong; those words are no secret. A value
// after the same names that is not one of those words still is.
func TestErrorProseIsNotASecret(t *testing.T) {
	for _, s := range []string{
		"get credentials: failed to refresh cached credentials",
		"operation error DynamoDB: Query, get identity: get credentials: failed to refresh cached credentials, no EC2 IMDS role found",
		"refresh cached SSO token: expired",
		"password: invalid",
		"load token: not found",
	} {
		if got, masked := Text(s); masked || got != s {
			t.Errorf("Text(%q) = %q, masked %v: error prose shown as a secret", s, got, masked)
		}
	}
	for _, c := range []struct{ text, hidden string }{
		{"password: hunter2", "hunter2"},
		{"login failed, password: failedhorse12", "failedhorse12"},
		{"token: " + planted + " rejected", planted},
		{"credentials: failed=" + planted, planted},
		{`{"password": "failed"}`, "failed"},
		{"secret:nothyphen", "nothyphen"},
		{"password:failed", "failed"},
		{"apiKey = no", "no"},
	} {
		got, masked := Text(c.text)
		if !masked || strings.Contains(got, c.hidden) {
			t.Errorf("Text(%q) = %q: %q not masked", c.text, got, c.hidden)
		}
	}
}
