package main

import "github.com/charmbracelet/x/ansi"

// The screen measures cells with ansi.WcWidth, whose rune-width table
// (2 × 1.1 MB) is built on the first rune beyond U+02FF it meets. The
// console's first frame has plenty (─ · … ✓), so the first draw, on the
// critical path of the first screen, paid the build: about 7 ms here,
// longer when the cores are shared with the first Query. warmWidths pays it on a goroutine of its own as main
// starts, while the main goroutine loads the config and builds the
// console and the server is still idle.
func warmWidths() { ansi.WcWidth.StringWidth("─") }
