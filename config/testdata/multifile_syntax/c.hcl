locals {
  x = 1
}

project "open" {
  id = "open-1"
  branch "main" {
    compute "primary" {
      pg_settings = {
    }
  }
}
