package english

import "testing"

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 files are"}, {1, "1 file is"}, {2, "2 files are"}} {
		if got := Plural(tt.n, "file is", "files are"); got != tt.want {
			t.Errorf("Plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOrAndJoinAsASentence(t *testing.T) {
	for _, tt := range []struct {
		words   []string
		or, and string
	}{
		{nil, "", ""},
		{[]string{"plan"}, "plan", "plan"},
		{[]string{"plan", "apply"}, "plan or apply", "plan and apply"},
		{[]string{"plan", "apply", "destroy"}, "plan, apply or destroy", "plan, apply and destroy"},
		{[]string{"a", "b", "c", "d"}, "a, b, c or d", "a, b, c and d"},
	} {
		if got := Or(tt.words); got != tt.or {
			t.Errorf("Or(%q) = %q, want %q", tt.words, got, tt.or)
		}
		if got := And(tt.words); got != tt.and {
			t.Errorf("And(%q) = %q, want %q", tt.words, got, tt.and)
		}
	}
}

func TestFirstFewCountsWhatItLeavesOut(t *testing.T) {
	words := []string{"shop", "web", "books", "blog"}
	for n, want := range map[int]string{
		2: "shop, web and 2 more",
		3: "shop, web, books and 1 more",
		4: "shop, web, books, blog",
		9: "shop, web, books, blog",
	} {
		if got := FirstFew(words, n); got != want {
			t.Errorf("FirstFew(%q, %d) = %q, want %q", words, n, got, want)
		}
	}
	if got := FirstFew(nil, 3); got != "" {
		t.Errorf("FirstFew(nil) = %q, want empty", got)
	}
	// The list it was given is left as it was.
	if FirstFew(words, 1); words[1] != "web" || len(words) != 4 {
		t.Errorf("FirstFew changed its list: %q", words)
	}
}
