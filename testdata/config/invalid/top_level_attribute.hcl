project_id = "dark-sun-46453911" # ERROR: Unsupported argument

project "shop" {
  id = "dark-sun-46453911"
}
