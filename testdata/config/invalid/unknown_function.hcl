project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = uppr("primary") # ERROR: Call to unknown function # HINT: Did you mean "upper"?
      size = max("two", 1) # ERROR: Invalid function argument
    }
  }
}
