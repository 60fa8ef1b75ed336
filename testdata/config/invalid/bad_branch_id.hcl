project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    id = "main" # ERROR: Invalid branch id
  }
  branch "endpoint" {
    id = "ep-cool-darkness-123456" # ERROR: Invalid branch id
  }
  branch "fine" {
    id = "br-small-term-683261"
  }
}
