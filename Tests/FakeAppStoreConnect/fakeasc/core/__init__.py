"""What every resource shares: errors, the record store, JSON:API rendering, the HTTP server and its control API."""
