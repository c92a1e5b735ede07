// Package e2e runs the whole live tail against DynamoDB Local: writes →
// stream.Tailer → livefeed.Feed → the Stream pane model, with the feed's
// commands run the way the program runs them. It holds only tests and
// benchmarks (this file exists so the directory is a package for every go
// command); it is separate from livefeed so livefeed's unit tests need no
// database.
package e2e
