package warehouse

import (
	"errors"
	"net"
)

// DialReason is the part of a failed dial a person can act on: no such
// host, a timeout, or the system's word (connection refused), without the
// addresses the error repeats.
func DialReason(op *net.OpError) string {
	var dns *net.DNSError
	switch {
	case errors.As(op, &dns) && dns.IsNotFound:
		return "no such host " + dns.Name
	case op.Timeout():
		return "connection timed out"
	}
	if op.Err != nil {
		return op.Err.Error()
	}
	return op.Error()
}
