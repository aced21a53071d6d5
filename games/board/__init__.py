"""The board drawn from an observation: one layout, then SVG for pages, PNG
for emails and plain lines for the text part of emails. No ORM, no requests."""
