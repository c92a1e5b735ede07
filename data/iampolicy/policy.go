// Package iampolicy builds the least-privilege IAM policy an opsdeck
// operator's role needs for one env: exactly the calls the data layer makes,
// on exactly the env's tables, their indexes and their streams. main only
// prints what Build returns; the test in this package runs every call the
// data layer can make against DynamoDB Local and checks the policy allows it.
package iampolicy

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"opsdeck/data"
	"opsdeck/data/action"
)

// Level is which of the two roles the policy is for.
type Level string

const (
	// ReadOnly reads tables, indexes and streams: what `--read-only` needs.
	ReadOnly Level = "read-only"
	// Operator adds the guarded transitions' writes and the release's StopTask.
	Operator Level = "operator"
)

// ParseLevel reads the command line's level.
func ParseLevel(s string) (Level, error) {
	switch Level(s) {
	case ReadOnly, Operator:
		return Level(s), nil
	}
	return "", fmt.Errorf("policy %q: want read-only or operator", data.Escape(s))
}

// Options says which policy to build.
type Options struct {
	Level  Level
	Tables data.Tables // the env's physical names (ResolveTables: {env} filled, config overrides)
	// Region and Account go into every ARN; empty means "*".
	Region, Account string
	// Cluster is the ECS cluster the release's StopTask may stop tasks in;
	// empty means any ("*"): the cluster comes from the session's
	// ecsTaskArn, which opsdeck does not know in advance.
	Cluster string
	// Scan grants dynamodb:Scan on the base tables, for the explicit
	// whole-table scan (ScanTable); no read path scans otherwise.
	Scan bool
	// Browse grants the reads (and, with Scan, the scan) on every table of
	// the account and region, not only the env's: what :table NAME needs
	// for a table no pane models. Without it :tables still lists every
	// table, and describing or reading another one is refused.
	Browse bool
}

// Document is an IAM policy document, in the field names IAM reads.
type Document struct {
	Version   string      `json:"Version"`
	Statement []Statement `json:"Statement"`
}

// Statement is one Allow statement.
type Statement struct {
	Sid      string   `json:"Sid"`
	Effect   string   `json:"Effect"`
	Action   []string `json:"Action"`
	Resource []string `json:"Resource"`
}

// The calls the data layer makes, by statement. The test in this package
// lists the SDK calls in the data layer's source and fails when one is not
// exercised here or not allowed.
var (
	tableReads = []string{"dynamodb:DescribeTable", "dynamodb:DescribeTimeToLive", "dynamodb:Query", "dynamodb:GetItem", "dynamodb:BatchGetItem"}
	// ListTables (:tables) has no resource of its own: IAM grants it on
	// "*" only.
	accountReads = []string{"dynamodb:ListTables"}
	indexReads   = []string{"dynamodb:Query"}
	streamReads  = []string{"dynamodb:DescribeStream", "dynamodb:GetShardIterator", "dynamodb:GetRecords"}
)

var accountRE = regexp.MustCompile(`^[0-9]{12}$`)

// Build returns the policy for o. Every table opsdeck knows is readable
// (each has a pane); UpdateItem is granted only on tables some action
// writes (action.Specs).
func Build(o Options) (Document, error) {
	if _, err := ParseLevel(string(o.Level)); err != nil {
		return Document{}, err
	}
	account := orAny(o.Account)
	if account != "*" && !accountRE.MatchString(account) {
		return Document{}, fmt.Errorf("account %q: want 12 digits", data.Escape(account))
	}
	region := orAny(o.Region)
	if strings.ContainsAny(region, ":/ ") {
		return Document{}, fmt.Errorf("region %q is not a region name", data.Escape(region))
	}
	cluster := orAny(o.Cluster)
	if strings.ContainsAny(cluster, ":/ ") {
		return Document{}, fmt.Errorf("cluster %q: want the cluster's name", data.Escape(cluster))
	}
	part := partition(region)
	tableARN := func(name string) string {
		return fmt.Sprintf("arn:%s:dynamodb:%s:%s:table/%s", part, region, account, name)
	}

	var tables, indexes, streams []string
	for _, s := range data.Schemas() {
		arn := tableARN(o.Tables.Name(s.ID))
		tables = append(tables, arn)
		// Each index by name: a GSI added later is not readable until
		// opsdeck knows it.
		for _, ix := range s.Indexes {
			indexes = append(indexes, arn+"/index/"+ix.Name)
		}
		// Every table's stream: the tailer reads whichever stream
		// DescribeTable reports (a table given a stream later goes live).
		streams = append(streams, arn+"/stream/*")
	}
	doc := Document{Version: "2012-10-17", Statement: []Statement{
		{Sid: "ReadTables", Action: tableReads, Resource: tables},
		{Sid: "QueryIndexes", Action: indexReads, Resource: indexes},
		{Sid: "ReadStreams", Action: streamReads, Resource: streams},
		{Sid: "ListTables", Action: accountReads, Resource: []string{"*"}},
	}}
	if o.Scan {
		doc.Statement = append(doc.Statement, Statement{Sid: "ScanTables", Action: []string{"dynamodb:Scan"}, Resource: tables})
	}
	if o.Browse {
		every := tableARN("*")
		doc.Statement = append(doc.Statement,
			Statement{Sid: "BrowseAnyTable", Action: tableReads, Resource: []string{every}},
			Statement{Sid: "BrowseAnyIndex", Action: indexReads, Resource: []string{every + "/index/*"}},
			Statement{Sid: "TailAnyTable", Action: streamReads, Resource: []string{every + "/stream/*"}})
		if o.Scan {
			doc.Statement = append(doc.Statement, Statement{Sid: "ScanAnyTable", Action: []string{"dynamodb:Scan"}, Resource: []string{every}})
		}
	}
	if o.Level == Operator {
		var written []string
		seen := map[data.TableID]bool{}
		stops := false
		for _, sp := range action.Specs() {
			if !seen[sp.Table] {
				seen[sp.Table] = true
				written = append(written, tableARN(o.Tables.Name(sp.Table)))
			}
			stops = stops || sp.Then != nil
		}
		sort.Strings(written)
		doc.Statement = append(doc.Statement, Statement{Sid: "GuardedTransitions", Action: []string{"dynamodb:UpdateItem"}, Resource: written})
		if stops {
			doc.Statement = append(doc.Statement, Statement{
				Sid: "StopReleasedSessionTask", Action: []string{"ecs:StopTask"},
				Resource: []string{fmt.Sprintf("arn:%s:ecs:%s:%s:task/%s/*", part, region, account, cluster)},
			})
		}
	}
	for i := range doc.Statement {
		doc.Statement[i].Effect = "Allow"
	}
	return doc, nil
}

// Allows reports whether some statement of d allows action on resource,
// matching "*" in a Resource as IAM does (any run of characters).
func (d Document) Allows(act, resource string) bool {
	for _, st := range d.Statement {
		if st.Effect != "Allow" {
			continue
		}
		hasAction := false
		for _, a := range st.Action {
			hasAction = hasAction || strings.EqualFold(a, act)
		}
		if !hasAction {
			continue
		}
		for _, r := range st.Resource {
			if globMatch(r, resource) {
				return true
			}
		}
	}
	return false
}

func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, p)
		}
		j := strings.Index(s, p)
		if j < 0 {
			return false
		}
		s = s[j+len(p):]
	}
	return true
}

func orAny(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// partition is the ARN partition of region: China and GovCloud have their own.
func partition(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	}
	return "aws"
}
