package emulator

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
)

// Identifiers look like the service's (docs/service.md, Identifiers and hosts): projects
// "dark-sun-46453911", branches "br-withered-paper-a5o7qhfg", endpoints
// "ep-shrill-boat-a5ez4tdt", organizations "org-morning-bread-81040908", operations and
// users UUIDs, API key secrets "napi_" + 64 lowercase letters and digits.

var adjectives = strings.Fields(`aged ancient autumn billowing bitter black blue bold broad broken calm cold
cool crimson curly damp dark dawn delicate divine dry empty falling fancy flat floral fragrant frosty
gentle green hidden holy icy jolly late lingering little lively long lucky misty morning muddy mute
nameless noisy odd old orange patient plain polished proud purple quiet rapid raspy red restless rough
round royal shiny shrill shy silent small snowy soft solitary sparkling spring square steep still summer
super sweet throbbing tight tiny twilight wandering weathered white wild winter wispy withered young`)

var nouns = strings.Fields(`art band bar base bird block boat bonus bread breeze brook bush butterfly cake
cell cherry cloud credit darkness dawn dew disk dream dust feather field fire firefly flower fog forest
frog frost glade glitter grass hall hat haze heart hill king lab lake leaf limit math meadow mode moon
morning mountain mouse mud night paper pine poetry pond queen rain recipe resonance rice river salad
scene sea shadow shape silence sky smoke snow snowflake sound star sun sunset surf term thunder tooth
tree truth union unit violet voice water waterfall wave wildflower wind wood`)

const lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"

// idSource makes identifiers. It is seeded from crypto/rand, so two emulators never
// hand out the same ids; ids need to be unique and plausible, not secret.
type idSource struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newIDSource() *idSource {
	var seed [32]byte
	_, _ = crand.Read(seed[:])
	return &idSource{rng: rand.New(rand.NewChaCha8(seed))}
}

func (s *idSource) words() string {
	return adjectives[s.rng.IntN(len(adjectives))] + "-" + nouns[s.rng.IntN(len(nouns))]
}

func (s *idSource) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + s.rng.IntN(10))
	}
	return string(b)
}

func (s *idSource) alnum(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = lowerAlnum[s.rng.IntN(len(lowerAlnum))]
	}
	return string(b)
}

func (s *idSource) projectID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.words() + "-" + s.digits(8)
}

func (s *idSource) orgID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "org-" + s.words() + "-" + s.digits(8)
}

func (s *idSource) branchID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "br-" + s.words() + "-a5" + s.alnum(6)
}

func (s *idSource) endpointID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "ep-" + s.words() + "-a5" + s.alnum(6)
}

// uuid returns a random (version 4) UUID.
func (s *idSource) uuid() string {
	s.mu.Lock()
	hi, lo := s.rng.Uint64(), s.rng.Uint64()
	s.mu.Unlock()
	hi = hi&^0xf000 | 0x4000         // version 4
	lo = lo&^(0xc<<60) | (0x8 << 60) // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, (hi>>16)&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// requestID is the id put in every error body and the X-Neon-Ret-Request-Id header.
func (s *idSource) requestID() string {
	return s.uuid()
}

// newRolePassword returns a fresh password for a Postgres role from crypto/rand, in
// the service's current form: "npg_" and 12 letters and digits.
func newRolePassword() string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var raw [12]byte
	_, _ = crand.Read(raw[:])
	b := []byte("npg_")
	for _, c := range raw {
		b = append(b, chars[int(c)%len(chars)])
	}
	return string(b)
}

// databaseID returns an id for a database, a number like the service's.
func (s *idSource) databaseID() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return 1_000_000 + s.rng.Int64N(9_000_000)
}

// newSecret returns a fresh API key secret from crypto/rand: "napi_" + 64 lowercase
// letters and digits, like the service's current keys.
func newSecret() string {
	var raw [64]byte
	_, _ = crand.Read(raw[:])
	b := make([]byte, 0, 5+len(raw))
	b = append(b, "napi_"...)
	for _, c := range raw {
		// The slight modulo bias leaves well over 300 bits of entropy.
		b = append(b, lowerAlnum[int(c)%len(lowerAlnum)])
	}
	return string(b)
}
