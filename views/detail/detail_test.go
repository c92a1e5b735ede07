package detail

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data/secret"
	"opsdeck/keymap"
	"opsdeck/themes"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw != w {
			t.Fatalf("%dx%d: line %d is %d wide: %q", w, h, i, lw, l)
		}
		bare := sgr.ReplaceAllString(l, "")
		for j := 0; j < len(bare); j++ {
			if c := bare[j]; c < 0x20 || c == 0x7f {
				t.Fatalf("line %d has raw control %#x: %q", i, c, l)
			}
		}
		for _, r := range bare {
			if (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x200b {
				t.Fatalf("line %d has raw %U: %q", i, r, l)
			}
		}
	}
}

func plainLines(m Model) []string {
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}

func press(k string) tea.KeyPressMsg {
	switch k {
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func TestTreeLayout(t *testing.T) {
	m := New(sampleItem(), Options{
		Title: "session sess-1", Theme: themes.Dark(), First: []string{"sessionId"},
		Problems: map[string]string{"count": "wrong type: want S, got N", "projectId": "required attribute missing"},
	})
	m.SetSize(60, 26)
	want := []string{
		"session sess-1",
		"sessionId S    sess-1",
		"bins      BS   2 members",
		"  •       B    AA== (1 byte)",
		"  •       B    AQI= (2 bytes)",
		"blob      B    AQL/ (3 bytes)",
		"count     N    42",
		"  ! wrong type: want S, got N",
		"gone      NULL null",
		"meta      M    2 keys",
		"  region  S    us-east-1",
		"  tries   L    2 items",
		"    [0]   N    1",
		"    [1]   S    two",
		"ok        BOOL true",
		"scores    NS   2 members",
		"  •       N    1.5",
		"  •       N    -2",
		"status    S    RUNNING",
		"tags      SS   2 members",
		"  •       S    a",
		"  •       S    b",
		"projectId -    (missing)",
		"  ! required attribute missing",
		"",
		"",
	}
	got := plainLines(m)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkFrame(t, m.View(), 60, 26)
}

func TestLongValuesWrap(t *testing.T) {
	long := strings.Repeat("abcdefghij", 10) // 100 cells
	m := New(map[string]types.AttributeValue{"k": s(long)}, Options{Theme: themes.Dark()})
	m.SetSize(40, 8)
	got := plainLines(m)
	// value column starts at 4+1+4+1 = 10, so 30 cells per line.
	want := []string{"", "k    S    " + long[:30], "          " + long[30:60], "          " + long[60:90], "          " + long[90:], "", "", ""}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s", strings.Join(got, "\n"))
	}
}

func TestHostileValuesStayInert(t *testing.T) {
	item := map[string]types.AttributeValue{
		"\x1b[2Jkey":   s("\x1b]52;c;aGk=\x07"),
		"bidi\u202e":   s("abc\u202edef\u200b"),
		"utf8":         s("\xff\xfe ok"),
		"c1":           s("\u009b31m and raw \x9b"),
		"nl":           s("line1\nline2\r\n\tx"),
		"nested":       &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"\x07bell": s("\x1b[31mred")}},
		"set":          &types.AttributeValueMemberSS{Value: []string{"\x1b]8;;http://evil\x1b\\"}},
		"\x1b]0;title": n("1"),
	}
	for _, th := range []themes.Theme{themes.Dark(), themes.Plain()} {
		m := New(item, Options{Title: "\x1b[2J title", Theme: th, Problems: map[string]string{"utf8": "\x1b[5m blink"}})
		for _, w := range []int{3, 20, 40, 80, 120} {
			m.SetSize(w, 20)
			checkFrame(t, m.View(), w, 20)
		}
		text := ansi.Strip(m.View())
		for _, want := range []string{`\x1b[2Jkey`, `\x1b]52;c;aGk=\x07`, `abc\u202edef\u200b`, `\xff\xfe ok`, `\u009b31m and raw \x9b`, `line1\nline2\r\n\tx`, `\x07bell`} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q not shown:\n%s", th.Name, want, text)
			}
		}
	}
}

func TestDeepNesting(t *testing.T) {
	var av types.AttributeValue = s("bottom")
	for i := 0; i < 30; i++ {
		if i%2 == 0 {
			av = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"level" + strconv.Itoa(30-i): av}}
		} else {
			av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
		}
	}
	item := map[string]types.AttributeValue{"root": av}
	m := New(item, Options{Theme: themes.Dark()})
	m.SetSize(80, 24)
	checkFrame(t, m.View(), 80, 24)
	m, _ = m.Update(press("G"), keymap.Default())
	text := ansi.Strip(m.View())
	if !strings.Contains(text, "bottom") {
		t.Fatalf("deepest value not reachable:\n%s", text)
	}
	checkFrame(t, m.View(), 80, 24)
	if _, err := JSON(item); err != nil {
		t.Fatalf("JSON of 30 levels: %v", err)
	}
	// Deeper than DynamoDB allows (not from a real table): refused, not a crash.
	for i := 0; i < maxDepth+5; i++ {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	item = map[string]types.AttributeValue{"root": av}
	if _, err := JSON(item); err == nil {
		t.Fatal("absurd nesting accepted by JSON")
	}
	m = New(item, Options{Theme: themes.Dark()})
	m.SetSize(80, 24)
	m, _ = m.Update(press("G"), keymap.Default())
	if !strings.Contains(ansi.Strip(m.View()), "nested too deep") {
		t.Fatalf("no note for absurd nesting")
	}
}

func TestHugeItem(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 390*1024/16) // 390 KB in one value
	item := map[string]types.AttributeValue{"a": s("first"), "big": s(big), "z": s("last")}
	m := New(item, Options{Theme: themes.Dark()})
	m.SetSize(80, 24)
	// 390 KB at 70 cells a line is 5706 lines, every one of them there to
	// scroll to (TestLongValuesReadWhole reads them back).
	if want := (len(big)+69)/70 + 2; m.Lines() != want {
		t.Fatalf("huge value laid out in %d lines, want %d", m.Lines(), want)
	}
	m, _ = m.Update(press("G"), keymap.Default())
	text := ansi.Strip(m.View())
	if !strings.Contains(text, "last") || !strings.Contains(text, big[len(big)-16:]) {
		t.Fatalf("bottom of huge item:\n%s", text)
	}
	checkFrame(t, m.View(), 80, 24)

	// Many attributes: the tree is capped, not the program.
	many := map[string]types.AttributeValue{}
	list := make([]types.AttributeValue, maxLines+1000)
	for i := range list {
		list[i] = &types.AttributeValueMemberNULL{Value: true}
	}
	many["list"] = &types.AttributeValueMemberL{Value: list}
	m = New(many, Options{Theme: themes.Dark()})
	m.SetSize(80, 24)
	if m.Lines() != maxLines {
		t.Fatalf("lines %d, want cap %d", m.Lines(), maxLines)
	}
	m, _ = m.Update(press("G"), keymap.Default())
	if !strings.Contains(ansi.Strip(m.View()), "more attributes and elements not shown") {
		t.Fatalf("cap not announced")
	}
}

func TestScrollKeys(t *testing.T) {
	item := map[string]types.AttributeValue{}
	for i := 0; i < 50; i++ {
		item["a"+strconv.Itoa(100+i)] = n(strconv.Itoa(i))
	}
	km := keymap.Default()
	m := New(item, Options{Title: "t", Theme: themes.Dark()})
	m.SetSize(40, 11) // 10 body lines, 50 content lines
	step := func(k string, wantOffset int) {
		t.Helper()
		m, _ = m.Update(press(k), km)
		if m.Offset() != wantOffset {
			t.Fatalf("after %s: offset %d, want %d", k, m.Offset(), wantOffset)
		}
	}
	step("j", 1)
	step("j", 2)
	step("k", 1)
	step("k", 0)
	step("k", 0)
	step("pgdown", 9)
	step("G", 40)
	step("j", 40)
	step("pgup", 31)
	step("g", 0)
	if !strings.Contains(ansi.Strip(m.View()), "1–10/50") {
		t.Fatalf("position not shown: %q", strings.Split(ansi.Strip(m.View()), "\n")[0])
	}
	// A new version of the item keeps the scroll position.
	m.ScrollDown(20)
	item["a999"] = s("new")
	m.SetItem(item)
	if m.Offset() != 20 {
		t.Fatalf("SetItem reset the scroll to %d", m.Offset())
	}
	// Shrinking the item clamps.
	m.SetItem(map[string]types.AttributeValue{"x": s("y")})
	if m.Offset() != 0 {
		t.Fatalf("offset %d past a short item", m.Offset())
	}
}

// tokenMask is a small masker: signingKey by name, any value starting
// with tok_ by shape.
type tokenMask struct{}

func (tokenMask) Whole(path []string) bool { return path[len(path)-1] == "signingKey" }
func (tokenMask) String(path []string, v string) (string, bool) {
	if strings.HasPrefix(v, "tok_") {
		return "••••••", true
	}
	return v, false
}
func (tokenMask) Binary([]string, []byte) bool { return false }

var maskToken = tokenMask{}

func TestMaskAndReveal(t *testing.T) {
	item := map[string]types.AttributeValue{
		"signingKey": s("sk-very-secret"),
		"cfg":        &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"t": s("tok_abc")}},
		"tags":       &types.AttributeValueMemberSS{Value: []string{"tok_set", "plain"}},
		"name":       s("visible"),
	}
	km := keymap.Default()
	m := New(item, Options{Theme: themes.Dark(), Mask: maskToken})
	m.SetSize(60, 12)
	text := ansi.Strip(m.View())
	for _, secret := range []string{"sk-very-secret", "tok_abc", "tok_set"} {
		if strings.Contains(text, secret) {
			t.Fatalf("secret %q shown masked view:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, "visible") || !strings.Contains(text, "••••••") {
		t.Fatalf("mask missing:\n%s", text)
	}
	js, masked, err := m.CopyText()
	if err != nil || !masked || strings.Contains(js, "sk-very-secret") || strings.Contains(js, "tok_") || !strings.Contains(js, "visible") {
		t.Fatalf("masked copy %v %v:\n%s", masked, err, js)
	}

	m, _ = m.Update(press("s"), km) // reveal
	text = ansi.Strip(m.View())
	if !m.Revealed() || !strings.Contains(text, "sk-very-secret") || !strings.Contains(text, "tok_set") || !strings.Contains(text, "[secrets shown]") {
		t.Fatalf("reveal did not show secrets:\n%s", text)
	}
	js, masked, _ = m.CopyText()
	if masked || !strings.Contains(js, "sk-very-secret") {
		t.Fatalf("revealed copy still masked")
	}
	m, _ = m.Update(press("s"), km)
	if m.Revealed() || strings.Contains(ansi.Strip(m.View()), "sk-very-secret") {
		t.Fatalf("second reveal press did not hide")
	}
}

func TestCopyKey(t *testing.T) {
	m := New(sampleItem(), Options{Theme: themes.Dark(), Mask: maskToken})
	m.SetSize(60, 10)
	_, cmd := m.Update(press("c"), keymap.Default())
	if cmd == nil {
		t.Fatal("copy returned no command")
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("copy: want a batch of clipboard + report, got %T", cmd())
	}
	var report CopiedMsg
	found := false
	for _, c := range batch {
		if msg, ok := c().(CopiedMsg); ok {
			report, found = msg, true
		}
	}
	want, _ := JSONMasked(sampleItem(), maskToken)
	if !found || report.Err != nil || report.Bytes != len(want) || !report.Masked {
		t.Fatalf("report %+v (found %v), want %d bytes masked", report, found, len(want))
	}
	if CopyCmd("x") == nil {
		t.Fatal("CopyCmd nil")
	}
}

func TestJSON(t *testing.T) {
	item := map[string]types.AttributeValue{
		"big":   n("123456789012345678901234567890.000001"),
		"bad":   n("not-a-number"),
		"ws":    n(" 1"),
		"esc":   s("a\x1b[2J<b>&"),
		"nul":   &types.AttributeValueMemberNULL{Value: true},
		"b":     &types.AttributeValueMemberB{Value: []byte("hi")},
		"nest":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberBOOL{Value: false}, n("-0.5e3")}}}},
		"ns":    &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"empty": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
	}
	got, err := JSON(item)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "b": "aGk=",
  "bad": "not-a-number",
  "big": 123456789012345678901234567890.000001,
  "empty": {},
  "esc": "a\u001b[2J<b>&",
  "nest": {
    "l": [
      false,
      -0.5e3
    ]
  },
  "ns": [
    1,
    2.5
  ],
  "nul": null,
  "ws": " 1"
}`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if empty, err := JSON(nil); err != nil || empty != "{}" {
		t.Fatalf("nil item: %q %v", empty, err)
	}
}

func TestZeroSizes(t *testing.T) {
	m := New(sampleItem(), Options{Theme: themes.Dark()})
	if m.View() != "" {
		t.Fatalf("unsized view not empty")
	}
	for _, sz := range [][2]int{{0, 5}, {1, 1}, {2, 3}, {5, 2}} {
		m.SetSize(sz[0], sz[1])
		v := m.View()
		if got := len(strings.Split(v, "\n")); got != sz[1] {
			t.Fatalf("%v: %d lines", sz, got)
		}
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > sz[0] {
				t.Fatalf("%v: line too wide: %q", sz, l)
			}
		}
	}
}

func TestZeroValueModel(t *testing.T) {
	var m Model
	m.SetSize(20, 3)
	m.SetItem(sampleItem())
	m, _ = m.Update(press("j"), keymap.Default())
	checkFrame(t, m.View(), 20, 3)
}

// TestSecretsOfEveryTypeMaskedInViewAndCopy: the console's masker hides a
// signingKey of any type (list, map, set, number, binary), a connectUrl
// stored as a map, and a token in an opaque URL, in the tree and in what c
// copies (the binary one as base64); s shows them for this item.
func TestSecretsOfEveryTypeMaskedInViewAndCopy(t *testing.T) {
	item := map[string]types.AttributeValue{
		"sessionId":  s("sess_1"),
		"signingKey": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("KEYLIST-0123456789")}},
		"meta": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"signingKey": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"v": s("KEYMAP-0123456789")}},
			"apiKey":     &types.AttributeValueMemberSS{Value: []string{"KEYSET-0123456789"}},
			"token":      n("98765432109876543210"),
			"privateKey": &types.AttributeValueMemberB{Value: []byte("KEYBIN-0123456789")},
		}},
		"connectUrl": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"url": s("wss://h:9223/cdp?signingKey=KEYURL-0123456789")}},
		"note":       s("use wss:h:9223/cdp?token=KEYOPAQUE-0123456789 to attach"),
	}
	secrets := []string{"KEYLIST", "KEYMAP", "KEYSET", "98765432109876543210", "KEYBIN", "S0VZQklO", "KEYURL", "KEYOPAQUE"}
	m := New(item, Options{Theme: themes.Dark(), Mask: secret.Default})
	m.SetSize(100, 40)
	view := ansi.Strip(m.View())
	js, masked, err := m.CopyText()
	if err != nil || !masked {
		t.Fatalf("copy: masked %v, %v", masked, err)
	}
	for _, sec := range secrets {
		if strings.Contains(view, sec) {
			t.Errorf("view shows %s:\n%s", sec, view)
		}
		if strings.Contains(js, sec) {
			t.Errorf("copy holds %s:\n%s", sec, js)
		}
	}
	for _, kept := range []string{"sess_1", "wss://h:9223/cdp?signingKey=••••••", "to attach"} {
		if !strings.Contains(view, kept) {
			t.Errorf("view lost %q:\n%s", kept, view)
		}
	}
	if !regexp.MustCompile(`signingKey +L +••••••`).MatchString(view) {
		t.Errorf("a masked list should keep its type:\n%s", view)
	}
	m, _ = m.Update(press("s"), keymap.Default())
	view = ansi.Strip(m.View())
	for _, sec := range []string{"KEYLIST-0123456789", "KEYMAP-0123456789", "KEYURL-0123456789"} {
		if !strings.Contains(view, sec) {
			t.Errorf("s did not reveal %s:\n%s", sec, view)
		}
	}
}

// The title quotes the item's id: a token in it is masked like the values
// until s reveals the item.
func TestTitleIsMaskedUntilRevealed(t *testing.T) {
	item := map[string]types.AttributeValue{"sessionId": s("wss://h.example/cdp?token=tok_Q7xV9kP2mW4rT8bN3cY6")}
	m := New(item, Options{Title: "sessions · wss://h.example/cdp?token=tok_Q7xV9kP2mW4rT8bN3cY6", Theme: themes.Dark(), Mask: secret.Default})
	m.SetSize(100, 6)
	if title := plainLines(m)[0]; strings.Contains(title, "tok_Q7x") || !strings.Contains(title, "token=••••••") {
		t.Fatalf("masked title: %q", title)
	}
	m, _ = m.Update(press("s"), keymap.Default())
	if title := plainLines(m)[0]; !strings.Contains(title, "tok_Q7xV9kP2mW4rT8bN3cY6") {
		t.Fatalf("revealed title: %q", title)
	}
}

// A problem note quotes the value it is about: masked with it until s.
func TestProblemNotesAreMaskedUntilRevealed(t *testing.T) {
	item := map[string]types.AttributeValue{
		"retryCount":  s("https://h.example/x?token=tok_Q7xV9kP2mW4rT8bN"),
		"signingKey":  &types.AttributeValueMemberN{Value: "31415926535897932384626"},
		"sessionName": s("plain"),
	}
	m := New(item, Options{Theme: themes.Dark(), Mask: secret.Default, Problems: map[string]string{
		"retryCount": `retryCount: want N, got S (not a number: "https://h.example/x?token=tok_Q7xV9kP2mW4rT8bN")`,
		"signingKey": `signingKey: want S, got N (not a string: "31415926535897932384626")`,
	}})
	m.SetSize(140, 12)
	text := ansi.Strip(m.View())
	for _, leak := range []string{"tok_Q7x", "31415926535897932384626"} {
		if strings.Contains(text, leak) {
			t.Fatalf("%q shown before reveal:\n%s", leak, text)
		}
	}
	if !strings.Contains(text, "not a number") {
		t.Fatalf("the note lost its reason:\n%s", text)
	}
	m, _ = m.Update(press("s"), keymap.Default())
	if text := ansi.Strip(m.View()); !strings.Contains(text, "tok_Q7xV9kP2mW4rT8bN") {
		t.Fatalf("revealed notes:\n%s", text)
	}
}
