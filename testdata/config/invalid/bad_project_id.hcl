project "shop" {
  id = "Dark_Sun!" # ERROR: Invalid project id
}

project "empty" {
  id = "" # ERROR: Invalid project id
}

project "long" {
  id = "a-very-long-project-id-that-goes-on-and-on-well-past-sixty-chars" # ERROR: Invalid project id
}
