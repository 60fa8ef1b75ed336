project "store" {
  id = "store-1"
  branch "main" {
    compute "primary" {
      size = = 2
    }
  }
}

project "other" {
  id = "other-1"
}
