project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 17 # ERROR: Unsupported compute size
    }
    compute "replica" {
      type = "read_only"
      size = 19 # ERROR: Unsupported compute size
    }
    compute "ok" {
      type = "read_only"
      size = 18
    }
  }
}
