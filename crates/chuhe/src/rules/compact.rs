//! Placeholder: the compact piece description (filled in a later slice).
