"""Model servers a campaign can use, started with the settings it relies on."""
