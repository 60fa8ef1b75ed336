project "shop" { # ERROR: Missing project id
  branch "main" {
    compute "primary" {
    }
  }
}
