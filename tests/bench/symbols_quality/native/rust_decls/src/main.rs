//! rust_decls prints the declarations of Rust files as JSON lines, from the `syn` parser:
//! what file level, inline modules, impls, traits and extern blocks declare (items, methods,
//! associated consts and types, struct/union fields, enum variants and their fields), not
//! what function bodies or const/static initialisers declare (local, as the benchmark's
//! scope rule says). Macro definitions and uses are left out (not compared).
//! Usage: rust_decls ROOT < paths (one path a line, relative to ROOT).
use std::io::{BufRead, Write};
use syn::{Fields, ImplItem, Item, TraitItem};

struct Out<'a> {
    path: &'a str,
    lines: Vec<String>,
}

impl Out<'_> {
    fn emit(&mut self, ident: &syn::Ident, class: &str, kind: &str) {
        let name = ident.to_string(); // a raw identifier as written: `r#async`
        let line = ident.span().start().line;
        let tag = serde_json::json!({"path": self.path, "name": name, "line": line,
                                     "class": class, "kind": kind});
        self.lines.push(tag.to_string());
    }

    fn fields(&mut self, fields: &Fields) {
        if let Fields::Named(named) = fields {
            for f in &named.named {
                if let Some(ident) = &f.ident {
                    self.emit(ident, "field", "field");
                }
            }
        }
    }

    fn items(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Mod(m) => {
                    self.emit(&m.ident, "type", "module");
                    if let Some((_, content)) = &m.content {
                        self.items(content);
                    }
                }
                Item::Struct(s) => {
                    self.emit(&s.ident, "type", "struct");
                    self.fields(&s.fields);
                }
                Item::Union(u) => {
                    self.emit(&u.ident, "type", "union");
                    for f in &u.fields.named {
                        if let Some(ident) = &f.ident {
                            self.emit(ident, "field", "field");
                        }
                    }
                }
                Item::Enum(e) => {
                    self.emit(&e.ident, "type", "enum");
                    for v in &e.variants {
                        self.emit(&v.ident, "field", "variant");
                        self.fields(&v.fields);
                    }
                }
                Item::Trait(t) => {
                    self.emit(&t.ident, "type", "trait");
                    for ti in &t.items {
                        match ti {
                            TraitItem::Fn(f) => self.emit(&f.sig.ident, "function", "trait fn"),
                            TraitItem::Const(c) => self.emit(&c.ident, "field", "trait const"),
                            TraitItem::Type(ty) => self.emit(&ty.ident, "type", "trait type"),
                            _ => {}
                        }
                    }
                }
                Item::TraitAlias(t) => self.emit(&t.ident, "type", "trait alias"),
                Item::Impl(i) => {
                    for ii in &i.items {
                        match ii {
                            ImplItem::Fn(f) => self.emit(&f.sig.ident, "function", "method"),
                            ImplItem::Const(c) => self.emit(&c.ident, "field", "impl const"),
                            ImplItem::Type(ty) => self.emit(&ty.ident, "type", "impl type"),
                            _ => {}
                        }
                    }
                }
                Item::Fn(f) => self.emit(&f.sig.ident, "function", "fn"),
                Item::Const(c) => self.emit(&c.ident, "field", "const"),
                Item::Static(s) => self.emit(&s.ident, "field", "static"),
                Item::Type(t) => self.emit(&t.ident, "type", "type"),
                Item::ForeignMod(fm) => {
                    for fi in &fm.items {
                        match fi {
                            syn::ForeignItem::Fn(f) => {
                                self.emit(&f.sig.ident, "function", "extern fn")
                            }
                            syn::ForeignItem::Static(s) => {
                                self.emit(&s.ident, "field", "extern static")
                            }
                            syn::ForeignItem::Type(t) => self.emit(&t.ident, "type", "extern type"),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).expect("ROOT"));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for path in std::io::stdin().lock().lines() {
        let path = path.expect("a path");
        let Ok(bytes) = std::fs::read(root.join(&path)) else { continue };
        let text = String::from_utf8_lossy(&bytes); // as the benchmark reads a body
        match syn::parse_file(&text) {
            Ok(file) => {
                let mut found = Out { path: &path, lines: Vec::new() };
                found.items(&file.items);
                for line in found.lines {
                    writeln!(out, "{line}").expect("stdout");
                }
            }
            Err(e) => {
                let tag = serde_json::json!({"path": path, "unparsed": e.to_string()});
                writeln!(out, "{tag}").expect("stdout");
            }
        }
    }
}
