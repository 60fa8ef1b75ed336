neonform {
  api_url = "embeded" # ERROR: Invalid API URL
}
