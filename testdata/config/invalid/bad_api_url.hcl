neonform {
  api_url = "ftp://console.neon.tech/api/v2" # ERROR: Invalid API URL
}
