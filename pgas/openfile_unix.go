//go:build unix

package pgas

import (
	"errors"
	"os"
	"syscall"
)

// openFile opens path for reading as a blocking descriptor. os.Open would
// first try to register the file with the runtime's network poller, which
// sets the poller up (an epoll instance, an event descriptor, four system
// calls) only to be refused for a regular file: a measurable part of a
// command that checks a small file.
//
// The open itself is non-blocking: opening a fifo for reading waits for a
// writer, possibly forever, before ReadLimited could refuse it as "not a
// regular file". Only a regular file is handed on, in blocking mode.
func openFile(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "stat", Path: path, Err: err}
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
		}
		if err := syscall.SetNonblock(fd, false); err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
