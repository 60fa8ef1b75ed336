project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      size = 17 # ERROR: Unsupported compute size # HINT: nearest are 16 and 18
    }
    compute "replica" {
      type = "read_only"
      size = 19 # ERROR: Unsupported compute size # HINT: nearest are 18 and 20
    }
    compute "ok" {
      type = "read_only"
      size = 18
    }
  }
}
