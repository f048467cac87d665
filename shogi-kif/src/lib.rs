//! Record formats (in progress).
