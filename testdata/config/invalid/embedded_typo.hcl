neonform {
  api_url = "embeded" # ERROR: Invalid API URL # HINT: Did you mean "embedded"?
}
