"""Steam (Kang & McAuley's games and reviews, and the Australian user reviews) -> the
prepared database."""
