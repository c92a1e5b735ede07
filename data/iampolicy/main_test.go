package iampolicy

import (
	"os"
	"testing"

	"opsdeck/demo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }
