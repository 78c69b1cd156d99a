module codethread/gocheck

go 1.19
