project "shop" {
  id = "dark-sun-46453911"
}

project "store" { # ERROR: Duplicate project id
  id = "dark-sun-46453911"
}
