package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/data/iampolicy"
)

const iamPolicyUsage = "usage: opsdeck iam-policy read-only|operator [--scan] [--browse] [--env NAME] [--config FILE] [--region REGION] [--account ID] [--cluster NAME]"

// runIAMPolicy is `opsdeck iam-policy`: it prints the least-privilege IAM
// policy for the env's tables (data/iampolicy builds it) and connects to
// nothing. The exit codes follow run's: 2 for bad usage, 1 for a bad config.
func runIAMPolicy(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("opsdeck iam-policy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var env, cfgPath, region, account, cluster string
	var scan, browse bool
	fs.StringVar(&env, "env", "", "environment name that fills {env} in table names (default from config, else dev)")
	fs.StringVar(&cfgPath, "config", "", "config file (default "+config.DefaultPath()+")")
	fs.StringVar(&region, "region", "", "region in the ARNs (default: the env's region in the config, then $AWS_REGION; else *)")
	fs.StringVar(&account, "account", "", "12-digit account id in the ARNs (default *)")
	fs.StringVar(&cluster, "cluster", "", "ECS cluster whose tasks a release may stop (operator; default *: the cluster is read from each session's ecsTaskArn)")
	fs.BoolVar(&scan, "scan", false, "also allow dynamodb:Scan on the tables (the explicit whole-table scan)")
	fs.BoolVar(&browse, "browse", false, "also allow reading (and with --scan scanning) every table of the account, for :table NAME on tables no pane models")
	// The level may come before or after the flags.
	var level string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		level, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, iamPolicyUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintln(stderr, "opsdeck iam-policy:", err)
		fmt.Fprintln(stderr, iamPolicyUsage)
		return 2
	}
	if level == "" && fs.NArg() > 0 {
		level = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "opsdeck iam-policy: unexpected argument %q\n%s\n", data.Escape(fs.Arg(0)), iamPolicyUsage)
		return 2
	}
	lv, err := iampolicy.ParseLevel(level)
	if err != nil {
		fmt.Fprintln(stderr, "opsdeck iam-policy:", err)
		fmt.Fprintln(stderr, iamPolicyUsage)
		return 2
	}
	cfg, err := config.Load(firstNonEmpty(cfgPath, config.DefaultPath()), cfgPath != "")
	if err != nil {
		fmt.Fprintln(stderr, "opsdeck iam-policy:", err)
		return 1
	}
	env = firstNonEmpty(env, cfg.Env, "dev")
	tables, err := data.ResolveTables(env, cfg.Tables)
	if err != nil {
		fmt.Fprintf(stderr, "opsdeck iam-policy: %s: %v\n", cfg.Where(firstTableLine(cfg)), err)
		return 1
	}
	own, _ := cfg.EnvSettings(env)
	doc, err := iampolicy.Build(iampolicy.Options{
		Level: lv, Tables: tables, Scan: scan, Browse: browse, Account: account, Cluster: cluster,
		Region: firstNonEmpty(region, own.Region, cfg.Region, os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION")),
	})
	if err != nil {
		fmt.Fprintln(stderr, "opsdeck iam-policy:", err)
		return 2
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "opsdeck iam-policy:", err)
		return 1
	}
	fmt.Fprintln(stdout, string(out))
	return 0
}
