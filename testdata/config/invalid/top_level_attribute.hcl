project_id = "dark-sun-46453911" # ERROR: Unsupported argument # HINT: takes blocks neonform, variable, locals, project, moved

project "shop" {
  id = "dark-sun-46453911"
}
