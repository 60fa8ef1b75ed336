package command

import (
	"net/http"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// The custom command of the key-leak script (registered in scriptCommands):
//
//	emuechokey METHOD
//	    from now on, the script's emulator answers every request of METHOD
//	    (GET, PATCH, ...; "" for none) with 401 {"message": "bad key: Bearer
//	    <the key>"} and the key in X-Neon-Ret-Request-Id: a server that echoes
//	    the Authorization header back.
func cmdEmuEchoKey(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: emuechokey METHOD")
	}
	emulatorOf(ts).echoKey.Store(args[0])
}

// echoingKey is next, but answering the requests of the method echoKey
// holds as emuechokey says.
func (s *scriptEmulator) echoingKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, _ := s.echoKey.Load().(string); m == "" || m != r.Method {
			next.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		w.Header().Set("X-Neon-Ret-Request-Id", "req-"+strings.TrimPrefix(auth, "Bearer "))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"code":"UNAUTHORIZED","message":"bad key: ` + auth + `"}`))
	})
}
