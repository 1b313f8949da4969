/** Request methods that metrics and logs know by name (metrics count any other as "OTHER"). */
export const KNOWN_METHODS = ["GET", "POST", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"] as const;
