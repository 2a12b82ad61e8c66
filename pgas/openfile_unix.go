//go:build unix

package pgas

import (
	"os"
	"syscall"
)

// openFile opens path for reading as a blocking descriptor. os.Open would
// first try to register the file with the runtime's network poller, which
// sets the poller up (an epoll instance, an event descriptor, four system
// calls) only to be refused for a regular file: a measurable part of a
// command that checks a small file.
func openFile(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
