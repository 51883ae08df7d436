// Package atomicfile writes a file whole or not at all: into a temporary
// file beside it, then renamed over it, so that a reader (a CI job, a
// browser, dbt) never sees half a report, and a crash leaves the old one.
package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// Write writes path with what write produces, readable by all (0644).
func Write(path string, write func(io.Writer) error) error {
	// A report is meant to be read by others, served or committed like
	// any file the user writes.
	return writeMode(path, 0o644, write)
}

// WriteFile writes path with data.
func WriteFile(path string, data []byte) error {
	return Write(path, copyData(data))
}

// WritePrivateFile writes path with data, readable by the user alone
// (0600): a key, or what is sealed beside it.
func WritePrivateFile(path string, data []byte) error {
	return writeMode(path, 0o600, copyData(data))
}

func copyData(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	}
}

func writeMode(path string, mode os.FileMode, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
