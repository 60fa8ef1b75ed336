project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
  }
  branch "prod" { # ERROR: Branch declared twice
    name = "main"
  }
  branch "pinned" {
    id = "br-small-term-683261"
  }
  branch "pinned_again" { # ERROR: Branch declared twice
    id = "br-small-term-683261"
  }
  branch "both" {
    name = "both"
    id   = "br-withered-paper-a5o7qhfg" # ERROR: Conflicting branch name and id
  }
  branch "nameless" {
    name = "" # ERROR: Invalid branch name
  }
}
