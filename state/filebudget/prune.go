package filebudget

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// keepUnused is how long a budget file no run wrote to is kept. Every spend
// rewrites the file, so one unwritten for a week counts no request and no
// pause any more (a minute's and a 429's are all it holds): it is only one
// more file of a key that is gone, and the cache directory would keep one
// for every key ever used on the machine.
const keepUnused = 7 * 24 * time.Hour

// prune removes the budget files of dir, other than keep, that no run wrote
// to for keepUnused and no run holds the lock of now. It touches only the
// files neonform names so (filePrefix, a hash, fileSuffix) that are regular
// files, not links (pruneFile), and says nothing: a file it cannot remove
// costs nothing but its room.
func prune(dir, keep string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.Type().IsRegular() && budgetName(e.Name()) && path != keep {
			pruneFile(path, now)
		}
	}
}

// budgetName is whether name is one Path gives.
func budgetName(name string) bool {
	hash, ok := strings.CutPrefix(name, filePrefix)
	hash, ok2 := strings.CutSuffix(hash, fileSuffix)
	if !ok || !ok2 || len(hash) != 32 {
		return false
	}
	_, err := hex.DecodeString(hash)
	return err == nil && strings.ToLower(hash) == hash
}
