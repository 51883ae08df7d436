package httpstatus

import "net/http"

// Failed reports whether a recorded status is an answer other than 200
// (0 means no answer was received).
func Failed(status int) bool { return status != 0 && status != http.StatusOK }
