package ui

// TerminalControl is what two keys every terminal program answers ask of
// the terminal the console runs in. They hold in every mode (a dialog, the
// command line, the help screen), are not rebindable, and are not on the
// help screen's list of the console's own keys: they are the terminal's.
type TerminalControl struct {
	// Repaint draws every cell again (ctrl+l): whatever another program
	// or a glitch left on the terminal is gone.
	Repaint func()
	// Suspend gives the terminal back and stops the process as the shell's
	// job control expects (ctrl+z); it returns once resumed (fg).
	Suspend func()
}

// ControlTerminal sets what ctrl+l and ctrl+z do. Without it they ask the
// program library (its ClearScreen and Suspend).
func (m *Model) ControlTerminal(c TerminalControl) { m.term = c }
