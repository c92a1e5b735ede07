package ddblocal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func client(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("a", "b", ""),
		// DynamoDB Local's error bodies carry a CRC the SDK rejects.
		DisableValidateResponseChecksum: true,
	})
}

// gone reports whether pid no longer runs (a zombie counts as gone: it
// holds no port and no memory, only a process-table slot for its parent).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// Format: pid (comm) state ...; comm may contain spaces.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}

// waitGone waits, with a deadline, until pid has exited.
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !gone(pid) {
		select {
		case <-deadline.C:
			t.Fatalf("java pid %d still running after %v", pid, within)
		case <-tick.C:
		}
	}
}

func createAndPut(ctx context.Context, t *testing.T, db *dynamodb.Client, table string) {
	t.Helper()
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(table),
		Item:      map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "kept"}},
	})
	if err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

func TestStartStopLeavesNoProcess(t *testing.T) {
	ctx := testCtx(t)
	srv := StartTest(ctx, t, Options{})
	pid := srv.PID()
	if pid == 0 {
		t.Fatal("no pid for a running server")
	}
	if !strings.HasPrefix(srv.Endpoint(), "http://127.0.0.1:") || srv.Port() == 0 {
		t.Fatalf("endpoint %q", srv.Endpoint())
	}
	out, err := client(srv.Endpoint()).ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatalf("ListTables on a fresh server: %v", err)
	}
	if len(out.TableNames) != 0 {
		t.Fatalf("fresh in-memory server has tables %v", out.TableNames)
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Fatalf("java pid %d survived Stop", pid)
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process group %d still has members after Stop (kill: %v)", pid, err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if srv.PID() != 0 {
		t.Fatal("PID after Stop should be 0")
	}
	if err := ping(ctx, client0, srv.Endpoint()); err == nil {
		t.Fatal("endpoint still answers after Stop")
	}
}

func TestRestartKeepsDataWithDBPath(t *testing.T) {
	ctx := testCtx(t)
	srv := StartTest(ctx, t, Options{DBPath: t.TempDir()})
	port, pid := srv.Port(), srv.PID()
	createAndPut(ctx, t, client(srv.Endpoint()), "restart-me")

	if err := srv.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if srv.Port() != port {
		t.Fatalf("port changed on restart: %d → %d", port, srv.Port())
	}
	if srv.PID() == pid || !gone(pid) {
		t.Fatalf("restart did not replace the process (old %d, new %d)", pid, srv.PID())
	}
	got, err := client(srv.Endpoint()).GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("restart-me"),
		Key:       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "kept"}},
	})
	if err != nil {
		t.Fatalf("GetItem after restart: %v", err)
	}
	if got.Item == nil {
		t.Fatal("item written before restart is gone")
	}
}

func TestInMemoryRestartForgets(t *testing.T) {
	ctx := testCtx(t)
	srv := StartTest(ctx, t, Options{})
	createAndPut(ctx, t, client(srv.Endpoint()), "forget-me")
	if err := srv.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := client(srv.Endpoint()).ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 0 {
		t.Fatalf("in-memory server kept tables across restart: %v", out.TableNames)
	}
}

func TestStartOnTakenPortFails(t *testing.T) {
	ctx := testCtx(t)
	a := StartTest(ctx, t, Options{})
	_, err := Start(ctx, Options{Port: a.Port()})
	if err == nil {
		t.Fatal("second server on the same port started")
	}
	if !errors.Is(err, errPortInUse) {
		t.Fatalf("want a port-in-use error, got: %v", err)
	}
}

// TestOwnerCrashKillsJava runs this test binary as a child that starts a
// server and then dies without stopping it; java must die with it.
func TestOwnerCrashKillsJava(t *testing.T) {
	if os.Getenv("DDBLOCAL_CRASH_CHILD") == "1" {
		srv, err := Start(context.Background(), Options{})
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(2)
		}
		fmt.Println("PID", srv.PID())
		os.Exit(3) // no Stop: the kernel must clean up
	}
	needJava(t)
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestOwnerCrashKillsJava$")
	cmd.Env = append(os.Environ(), "DDBLOCAL_CRASH_CHILD=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PID "); ok {
			pid, _ = strconv.Atoi(v)
		}
		if strings.HasPrefix(sc.Text(), "ERR ") {
			t.Fatal(sc.Text())
		}
	}
	_ = cmd.Wait()
	if pid == 0 {
		t.Fatal("child reported no java pid")
	}
	waitGone(t, pid, 30*time.Second)
}
