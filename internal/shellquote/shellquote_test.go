package shellquote

import (
	"os/exec"
	"strings"
	"testing"
)

// What a shell makes of each quoted word is the word itself.
func TestAShellReadsBackEveryWord(t *testing.T) {
	words := []string{"shop.main.primary", `shop.main.reports["eu"]`, `t["it's"].main.x`, "a b", "", "$HOME", "*", `back\slash`, "-var"}
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, Word(w))
	}
	if Word("shop.main.primary") != "shop.main.primary" {
		t.Errorf("a plain address is quoted: %s", Word("shop.main.primary"))
	}
	script := "for w in " + strings.Join(quoted, " ") + `; do printf '[%s]\n' "$w"; done`
	got, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	var want strings.Builder
	for _, w := range words {
		want.WriteString("[" + w + "]\n")
	}
	if string(got) != want.String() {
		t.Errorf("the shell read back\n%s\nwant\n%s", got, want.String())
	}
}
