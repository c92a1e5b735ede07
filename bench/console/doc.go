// Package console benchmarks the built opsdeck binary the way an operator
// meets it: in a pseudo-terminal, against DynamoDB Local.
package console
