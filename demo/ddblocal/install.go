package ddblocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// The emulator comes from an npm package because npm is the one registry
// that is both widely installed and serves it with an integrity hash we can
// pin. Changing the version means changing the integrity too.
const (
	npmPackage   = "amplify-dynamodb-simulator"
	npmVersion   = "2.9.30"
	npmIntegrity = "sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ=="

	// The part of the tarball we keep.
	emulatorPrefix = "package/emulator/"
	jarName        = "DynamoDBLocal.jar"
	libDirName     = "DynamoDBLocal_lib"
)

// TarballEnv names an optional local copy of the npm tarball, used instead of
// `npm pack` (offline machines). It is verified against the same pinned
// integrity, so it cannot smuggle in anything else.
const TarballEnv = "OPSDECK_DDBLOCAL_TARBALL"

// About the tarball's own emulator/sha256 file: it does NOT hold the digest of
// DynamoDBLocal.jar (for 2.9.30 it is 55b425a9…, the jar is 454305e9…; it is
// the digest of the upstream download the package was built from). So it
// cannot vouch for the unpacked files; the pinned sha512 of the whole tarball
// does that instead.

// installDir is the versioned directory inside the cache: a version bump
// installs side by side instead of mixing files of two releases.
func installDir(cache string) string {
	return filepath.Join(cache, "dynamodb-local", npmPackage+"-"+npmVersion)
}

// Installed reports the emulator directory if it is already installed.
func Installed() (string, bool) {
	dir := installDir(CacheDir())
	if fi, err := os.Stat(filepath.Join(dir, jarName)); err == nil && fi.Mode().IsRegular() {
		return dir, true
	}
	return dir, false
}

// Install makes sure DynamoDB Local is in the cache and returns its directory
// (the one holding DynamoDBLocal.jar and DynamoDBLocal_lib). It is safe to run
// from several processes at once: an install lock serialises downloads, and
// the final directory appears by an atomic rename, so nobody ever sees half an
// install.
func Install(ctx context.Context) (string, error) {
	return InstallProgress(ctx, nil)
}

// InstallProgress is Install, saying on w what it does while it downloads
// and unpacks (nothing when already installed, or when w is nil): a first
// install fetches about 55 MB and must not look like a hang.
func InstallProgress(ctx context.Context, w io.Writer) (string, error) {
	if dir, ok := Installed(); ok {
		return dir, nil
	}
	cache := CacheDir()
	final := installDir(cache)
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("creating cache dir: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(parent, ".install.lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	// Someone else may have finished while we waited for the lock.
	if dir, ok := Installed(); ok {
		return dir, nil
	}

	tmp, err := os.MkdirTemp(parent, ".installing-")
	if err != nil {
		return "", fmt.Errorf("creating temp dir in cache: %w", err)
	}
	defer os.RemoveAll(tmp)

	say := func(format string, a ...any) {
		if w != nil {
			fmt.Fprintf(w, format, a...)
		}
	}
	tgz, err := fetchTarball(ctx, tmp, cache, w)
	if err != nil {
		return "", err
	}
	if err := verifyIntegrity(tgz, npmIntegrity); err != nil {
		return "", err
	}
	say("checked its sha512; unpacking DynamoDB Local into %s…\n", final)
	staged := filepath.Join(tmp, "emulator")
	if err := unpackEmulator(tgz, staged); err != nil {
		return "", fmt.Errorf("unpacking %s: %w", filepath.Base(tgz), err)
	}
	if _, err := os.Stat(filepath.Join(staged, jarName)); err != nil {
		return "", fmt.Errorf("%s@%s has no emulator/%s", npmPackage, npmVersion, jarName)
	}
	if err := os.Rename(staged, final); err != nil {
		// Rename-wins: if another installer (without working locks) got
		// there first, its complete copy is as good as ours.
		if dir, ok := Installed(); ok {
			return dir, nil
		}
		return "", fmt.Errorf("moving DynamoDB Local into place: %w", err)
	}
	return final, nil
}

// ErrNoNpm is wrapped by Install's error when the emulator must be
// downloaded and npm is not installed.
var ErrNoNpm = errors.New("npm is not installed")

// fetchTarball puts the pinned npm tarball into dir and returns its path.
// npm's own cache is kept inside ours (cache/npm), not in ~/.npm: what
// opsdeck downloads lives in one place, which `$OPSDECK_CACHE` names.
func fetchTarball(ctx context.Context, dir, cache string, w io.Writer) (string, error) {
	if src := os.Getenv(TarballEnv); src != "" {
		return src, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("DynamoDB Local is not installed yet and %w: install npm (e.g. `apt-get install npm` on Debian), or point $%s at %s-%s.tgz", ErrNoNpm, TarballEnv, npmPackage, npmVersion)
	}
	spec := npmPackage + "@" + npmVersion
	npmCache := NpmCacheDir(cache)
	cmd := exec.CommandContext(ctx, npm, "pack", spec, "--ignore-scripts", "--silent", "--pack-destination", dir)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_cache="+npmCache)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	stop := reportDownload(w, npmCache)
	err = cmd.Run()
	stop()
	if err != nil {
		return "", fmt.Errorf("npm pack %s: %w\n%s", spec, err, tail(out.Bytes(), 2000))
	}
	tgz := filepath.Join(dir, npmPackage+"-"+npmVersion+".tgz")
	if _, err := os.Stat(tgz); err != nil {
		return "", fmt.Errorf("npm pack %s produced no %s:\n%s", spec, filepath.Base(tgz), tail(out.Bytes(), 2000))
	}
	return tgz, nil
}

// verifyIntegrity checks a file against an npm/SRI integrity string
// ("sha512-<base64>").
func verifyIntegrity(file, integrity string) error {
	algo, want, ok := strings.Cut(integrity, "-")
	if !ok || algo != "sha512" {
		return fmt.Errorf("unsupported integrity %q (want sha512-…)", integrity)
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("reading %s: %w", file, err)
	}
	got := base64.StdEncoding.EncodeToString(h.Sum(nil))
	if got != want {
		return fmt.Errorf("integrity check failed for %s: got sha512-%s, want %s; refusing to install it", filepath.Base(file), got, integrity)
	}
	return nil
}

// unpackEmulator extracts package/emulator/** from the gzipped tarball into
// dest. Anything else in the tarball is ignored; any entry that would land
// outside dest, or that is a link or device, is an error.
func unpackEmulator(tgz, dest string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	defer gz.Close()
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(hdr.Name, "./")
		if !strings.HasPrefix(name, emulatorPrefix) {
			continue
		}
		rel := strings.TrimPrefix(name, emulatorPrefix)
		if rel == "" || rel == "/" {
			continue
		}
		// Clean first, then demand a local path: "a/../../x" and "/etc/x"
		// both fail here.
		clean := path.Clean(rel)
		if !filepath.IsLocal(filepath.FromSlash(clean)) {
			return fmt.Errorf("refusing tar entry %q: it points outside the install dir", hdr.Name)
		}
		target := filepath.Join(dest, filepath.FromSlash(clean))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := writeFile(target, tr, hdr.Size); err != nil {
				return err
			}
		default:
			return fmt.Errorf("refusing tar entry %q: type %q is not a plain file or directory", hdr.Name, hdr.Typeflag)
		}
	}
}

func writeFile(target string, r io.Reader, size int64) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("duplicate tar entry for %s", target)
		}
		return err
	}
	n, err := io.Copy(out, io.LimitReader(r, size))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("%s: short read (%d of %d bytes)", target, n, size)
	}
	return err
}

// tail returns at most n bytes from the end of b, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}
