project "shop" {
  id = "dark-sun-46453911"
}

settings = { # ERROR: Unclosed brace # HINT: Add the "}"
