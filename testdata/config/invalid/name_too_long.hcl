project "shop" {
  id = "dark-sun-46453911"

  branch "main" {
    compute "primary" {
      name = "a-name-that-is-far-too-long-for-the-service-which-allows-only-64-chars" # ERROR: Compute name too long
    }
    compute "a_label_that_is_far_too_long_to_be_the_name_of_an_endpoint_in_the_service" { # ERROR: Compute name too long
      type = "read_only"
    }
    compute "empty" {
      type = "read_only"
      name = "" # ERROR: Invalid compute name
    }
  }
}
